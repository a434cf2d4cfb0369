from bench.critic_corpus import Case

_SETUP_KC = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(2718)
n_acc = 120
acc = pd.DataFrame({
    "account_id": np.arange(51000, 51000 + n_acc),
    "strategy": rng.permutation(np.repeat(["sms_first", "call_first"], n_acc // 2)),
})
acc["propensity"] = rng.beta(2, 3, n_acc) + np.where(acc["strategy"] == "sms_first", 0.03, 0)
months = pd.date_range("2024-01-31", periods=12, freq="ME")
book = acc.merge(pd.DataFrame({"month_end": months}), how="cross")
book["paid_in_month"] = rng.binomial(1, book["propensity"].clip(0, 1))
book = book.drop(columns="propensity")
'''

_FLAW_KC = '''
from statsmodels.stats.proportion import proportions_ztest

summary = book.groupby("strategy")["paid_in_month"].agg(["sum", "count", "mean"])
z, p = proportions_ztest(summary["sum"].to_numpy(), summary["count"].to_numpy())
print(summary.round(3))
print(f"payment-rate uplift sms_first vs call_first: "
      f"{summary.loc['sms_first', 'mean'] - summary.loc['call_first', 'mean']:+.3f} "
      f"(z = {z:.2f}, p = {p:.4f}, n = {summary['count'].sum()})")
'''

_SOUND_KC = '''
from scipy import stats

per_acc = book.groupby(["account_id", "strategy"], as_index=False)["paid_in_month"].mean()
summary = per_acc.groupby("strategy")["paid_in_month"].agg(["count", "mean", "std"])
sms = per_acc.loc[per_acc["strategy"] == "sms_first", "paid_in_month"]
call = per_acc.loc[per_acc["strategy"] == "call_first", "paid_in_month"]
t, p = stats.ttest_ind(sms, call, equal_var=False)
print(summary.round(3))
print(f"payment-rate uplift sms_first vs call_first: {sms.mean() - call.mean():+.3f} "
      f"(Welch t on account-level rates = {t:.2f}, p = {p:.4f}, n = {len(per_acc)} accounts)")
'''

_SETUP_TEL = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(4)
n_drv = 70
drivers = pd.DataFrame({
    "driver_id": [f"D{d:04d}" for d in range(n_drv)],
    "blackbox_discount": rng.binomial(1, 0.5, n_drv),
    "driver_effect": rng.normal(0, 0.9, n_drv),
    "n_trips": rng.integers(20, 70, n_drv),
})
trips = drivers.loc[drivers.index.repeat(drivers["n_trips"])].reset_index(drop=True)
trips["trip_km"] = np.round(rng.gamma(2.0, 9.0, len(trips)) + 1, 1)
trips["night_share"] = np.round(rng.beta(1, 6, len(trips)), 2)
trips["harsh_brakes_per_100km"] = np.round(np.clip(
    2.5 + trips["driver_effect"] - 0.3 * trips["blackbox_discount"]
    + 1.5 * trips["night_share"] + rng.normal(0, 0.8, len(trips)), 0, None), 2)
trips = trips.drop(columns=["driver_effect", "n_trips"])
'''

_FLAW_TEL = '''
import statsmodels.formula.api as smf

fit = smf.ols("harsh_brakes_per_100km ~ blackbox_discount + night_share + np.log(trip_km)",
              data=trips).fit()
print(f"{len(trips)} trips, {trips['driver_id'].nunique()} drivers")
print(fit.summary().tables[1])
b, p = fit.params["blackbox_discount"], fit.pvalues["blackbox_discount"]
print(f"discounted drivers brake harshly {b:+.2f}/100km (p = {p:.2g})")
'''

_SOUND_TEL = '''
import statsmodels.formula.api as smf

fit = smf.ols("harsh_brakes_per_100km ~ blackbox_discount + night_share + np.log(trip_km)",
              data=trips).fit(cov_type="cluster", cov_kwds={"groups": trips["driver_id"]})
print(f"{len(trips)} trips, {trips['driver_id'].nunique()} drivers (SEs clustered by driver)")
print(fit.summary().tables[1])
b, p = fit.params["blackbox_discount"], fit.pvalues["blackbox_discount"]
print(f"discounted drivers brake harshly {b:+.2f}/100km (p = {p:.2g})")
'''

CASES: list[Case] = [
    Case(id="h20-pseudorep-collections-account-months", family="pseudoreplication",
         code=_FLAW_KC, setup=_SETUP_KC, twin="h20-pseudorep-collections-account-level",
         note="strategy is assigned per account but the z-test treats 1,440 account-months "
              "(12 per account) as independent trials",
         split="holdout20"),
    Case(id="h20-pseudorep-collections-account-level", family=None, code=_SOUND_KC,
         setup=_SETUP_KC, twin="h20-pseudorep-collections-account-months",
         note="monthly payments collapsed to one rate per account before a Welch test on "
              "the 120 randomised accounts",
         split="holdout20"),
    Case(id="h20-pseudorep-telematics-trips-iid", family="pseudoreplication",
         code=_FLAW_TEL, setup=_SETUP_TEL, twin="h20-pseudorep-telematics-cluster-se",
         note="driver-level discount effect estimated from ~3,000 trips by 70 drivers with "
              "plain OLS standard errors, ignoring within-driver correlation",
         split="holdout20"),
    Case(id="h20-pseudorep-telematics-cluster-se", family=None, code=_SOUND_TEL,
         setup=_SETUP_TEL, twin="h20-pseudorep-telematics-trips-iid",
         note="same trip-level regression with standard errors clustered on driver",
         split="holdout20"),
]
