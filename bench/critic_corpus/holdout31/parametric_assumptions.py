from bench.critic_corpus import Case

_INCENTIVE_SETUP = '''
import numpy as np
import pandas as pd

# recontact pilot: paper questionnaire re-mailed to 18 lapsed panel members on 3 March,
# half with a prepaid 5-pound voucher; returns logged by the scanning unit
mailed = pd.Timestamp("2024-03-03")
pilot = pd.DataFrame({
    "case_id": [f"RC{k:03d}" for k in range(101, 119)],
    "arm": ["prepaid"] * 9 + ["none"] * 9,
    "returned": pd.to_datetime([
        "2024-03-04", "2024-03-04", "2024-03-05", "2024-03-05", "2024-03-05",
        "2024-03-06", "2024-03-06", "2024-03-07", "2024-04-13",
        "2024-03-08", "2024-03-09", "2024-03-10", "2024-03-11", "2024-03-12",
        "2024-03-14", "2024-03-15", "2024-03-17", "2024-03-19"]),
})
'''

_FOODBANK_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1919)
wards = {"Abbey": 38, "Bridge": 12, "Castle": 9, "Dean": 27, "Eastfield": 15,
         "Fairmile": 11, "Greenhill": 33, "Harbour": 8, "Kingsmead": 21, "Longcross": 10}
true_rate = {"Abbey": 0.06, "Bridge": 0.09, "Castle": 0.07, "Dean": 0.05, "Eastfield": 0.12,
             "Fairmile": 0.08, "Greenhill": 0.04, "Harbour": 0.10, "Kingsmead": 0.06,
             "Longcross": 0.09}
cs = pd.DataFrame({"ward": np.repeat(list(wards), list(wards.values()))})
cs["used_foodbank_12m"] = rng.binomial(1, cs["ward"].map(true_rate).to_numpy())
'''

CASES: list[Case] = [
    Case(
        id="h31-parametric-assumptions-ttest-days-to-return",
        family="parametric_assumptions",
        setup=_INCENTIVE_SETUP,
        code='''from scipy import stats

pilot["days_to_return"] = (pilot["returned"] - mailed).dt.days
print(pilot.groupby("arm")["days_to_return"].agg(["count", "mean", "std"]).round(1))

a = pilot.loc[pilot["arm"] == "prepaid", "days_to_return"]
b = pilot.loc[pilot["arm"] == "none", "days_to_return"]
t, p = stats.ttest_ind(a, b)
print(f"\\nt = {t:.2f}, p = {p:.3f}")
print("prepaid voucher does not speed up returns -> drop it from the main recontact"
      if p >= 0.05 else "prepaid voucher speeds up returns")
''',
        twin="h31-parametric-assumptions-ttest-days-to-return-ok",
        note="Student t-test on 9 vs 9 right-skewed return times (one prepaid case took 41 days); "
             "the single outlier drives the 'no effect' conclusion.",
        split="holdout31",
    ),
    Case(
        id="h31-parametric-assumptions-ttest-days-to-return-ok",
        family=None,
        setup=_INCENTIVE_SETUP,
        code='''from scipy import stats

pilot["days_to_return"] = (pilot["returned"] - mailed).dt.days
print(pilot.groupby("arm")["days_to_return"].describe()[["count", "25%", "50%", "75%", "max"]])

a = pilot.loc[pilot["arm"] == "prepaid", "days_to_return"]
b = pilot.loc[pilot["arm"] == "none", "days_to_return"]
# 9 vs 9 and a 41-day straggler: use an exact rank test rather than a t-test
u = stats.mannwhitneyu(a, b, alternative="two-sided", method="exact")
print(f"\\nMann-Whitney U = {u.statistic:.0f}, exact p = {u.pvalue:.4f}")
print(f"median days: prepaid {a.median():.0f} vs none {b.median():.0f}")
''',
        twin="h31-parametric-assumptions-ttest-days-to-return",
        note="Exact Mann-Whitney test and medians for two tiny, skewed samples of return times.",
        split="holdout31",
    ),
    Case(
        id="h31-parametric-assumptions-wald-moe-small-wards",
        family="parametric_assumptions",
        setup=_FOODBANK_SETUP,
        code='''z = 1.96
by_ward = cs.groupby("ward")["used_foodbank_12m"].agg(n="size", users="sum")
by_ward["pct"] = by_ward["users"] / by_ward["n"]
by_ward["moe"] = z * np.sqrt(by_ward["pct"] * (1 - by_ward["pct"]) / by_ward["n"])
by_ward["lo"] = by_ward["pct"] - by_ward["moe"]
by_ward["hi"] = by_ward["pct"] + by_ward["moe"]
by_ward["below_10pct"] = by_ward["hi"] < 0.10

print("Food bank use in last 12 months, by ward (95% CI, +/- MOE)")
below = ", ".join(by_ward.index[by_ward["below_10pct"]]) or "none"
print(f"wards confidently below 10%: {below}")
(100 * by_ward[["pct", "moe", "lo", "hi"]]).round(1).join(by_ward[["n", "users"]])
''',
        twin="h31-parametric-assumptions-wald-moe-small-wards-ok",
        note="Wald (normal-approximation) margins on ward samples of 8-38 with 0-3 users; zero "
             "counts get a 0-width interval and are declared 'confidently below 10%'.",
        split="holdout31",
    ),
    Case(
        id="h31-parametric-assumptions-wald-moe-small-wards-ok",
        family=None,
        setup=_FOODBANK_SETUP,
        code='''from statsmodels.stats.proportion import proportion_confint

by_ward = cs.groupby("ward")["used_foodbank_12m"].agg(n="size", users="sum")
by_ward["pct"] = by_ward["users"] / by_ward["n"]
# counts of 0-3 in wards of 8-38 people: exact Clopper-Pearson, not +/- 1.96 SE
by_ward["lo"], by_ward["hi"] = proportion_confint(by_ward["users"], by_ward["n"],
                                                  alpha=0.05, method="beta")
by_ward["below_10pct"] = by_ward["hi"] < 0.10

print("Food bank use in last 12 months, by ward (95% Clopper-Pearson CI)")
below = ", ".join(by_ward.index[by_ward["below_10pct"]]) or "none"
print(f"wards confidently below 10%: {below}")
(100 * by_ward[["pct", "lo", "hi"]]).round(1).join(by_ward[["n", "users"]])
''',
        twin="h31-parametric-assumptions-wald-moe-small-wards",
        note="Exact binomial intervals for tiny ward counts; no ward is claimed to be below 10% "
             "unless the exact upper bound supports it.",
        split="holdout31",
    ),
]
