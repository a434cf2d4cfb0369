from bench.critic_corpus import Case

_MCC_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3231)
mcc_codes = [5411, 5541, 5812, 5814, 5912, 5999, 5311, 5732, 5734, 5735, 5941, 5942, 5945,
             5661, 5651, 5691, 5699, 4121, 4511, 7011, 7372, 7399, 7832, 7997, 8011, 8062,
             8220, 4814, 4899, 5122]
vol = rng.integers(600, 4_000, len(mcc_codes))
rows = []
for code, v in zip(mcc_codes, vol):
    rate = 0.018 * (1.9 if code == 7372 else 1.0)     # software/digital is genuinely worse
    rows.append(pd.DataFrame({"mcc": code, "is_fraud": (rng.random(v) < rate).astype(int)}))
auth = pd.concat(rows, ignore_index=True)
auth["amount_usd"] = np.round(rng.lognormal(3.8, 1.0, len(auth)), 2)
auth = auth.sample(frac=1.0, random_state=1).reset_index(drop=True)
'''

_RULES_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3268)
countries = ["US", "CA", "GB", "IE", "DE", "FR", "ES", "IT", "NL", "PL", "BR", "MX", "AR",
             "IN", "SG", "AU", "JP", "ZA"]
frames = []
for cc in countries:
    n_ctl, n_trt = rng.integers(2_500, 9_000, 2)
    base = rng.uniform(0.004, 0.012)
    frames.append(pd.DataFrame({
        "issuer_country": cc,
        "arm": ["control"] * n_ctl + ["rules_v7"] * n_trt,
        # v7 ruleset does nothing measurable to the fraud rate
        "confirmed_fraud": (rng.random(n_ctl + n_trt) < base).astype(int),
    }))
ab = pd.concat(frames, ignore_index=True)
ab["auth_id"] = np.arange(len(ab)) + 70_000_000
'''

CASES: list[Case] = [
    Case(
        id="h32-multiple-comparisons-mcc-chi2-screen",
        family="multiple_comparisons",
        split="holdout32",
        twin="h32-multiple-comparisons-mcc-chi2-screen-sound",
        setup=_MCC_SETUP,
        note=("30 per-MCC chi-square tests (MCC vs rest) at alpha 0.05 with no multiplicity "
              "correction; every p<0.05 MCC is proposed for the high-risk list"),
        code='''from scipy.stats import chi2_contingency

overall = auth["is_fraud"].mean()
res = []
for code, g in auth.groupby("mcc"):
    rest = auth.loc[auth["mcc"] != code, "is_fraud"]
    table = [[g["is_fraud"].sum(), len(g) - g["is_fraud"].sum()],
             [rest.sum(), len(rest) - rest.sum()]]
    chi2, p, _, _ = chi2_contingency(table)
    res.append((code, len(g), g["is_fraud"].mean(), p))

res = pd.DataFrame(res, columns=["mcc", "n_auth", "fraud_rate", "p_value"])
high_risk = res[(res["p_value"] < 0.05) & (res["fraud_rate"] > overall)]
print(f"portfolio fraud rate {overall:.2%}; {len(high_risk)} MCCs significantly riskier:")
print("-> add to HIGH_RISK_MCC:", sorted(high_risk["mcc"].tolist()))
high_risk.sort_values("p_value").round(4)
''',
    ),
    Case(
        id="h32-multiple-comparisons-mcc-chi2-screen-sound",
        family=None,
        split="holdout32",
        twin="h32-multiple-comparisons-mcc-chi2-screen",
        setup=_MCC_SETUP,
        note=("same 30 per-MCC chi-square tests, but Benjamini-Hochberg FDR adjustment is applied "
              "before any MCC is put on the high-risk list"),
        code='''from scipy.stats import chi2_contingency
from statsmodels.stats.multitest import multipletests

overall = auth["is_fraud"].mean()
res = []
for code, g in auth.groupby("mcc"):
    rest = auth.loc[auth["mcc"] != code, "is_fraud"]
    table = [[g["is_fraud"].sum(), len(g) - g["is_fraud"].sum()],
             [rest.sum(), len(rest) - rest.sum()]]
    chi2, p, _, _ = chi2_contingency(table)
    res.append((code, len(g), g["is_fraud"].mean(), p))

res = pd.DataFrame(res, columns=["mcc", "n_auth", "fraud_rate", "p_value"])
reject, res["q_value"], _, _ = multipletests(res["p_value"], alpha=0.05, method="fdr_bh")
high_risk = res[reject & (res["fraud_rate"] > overall)]
print(f"portfolio fraud rate {overall:.2%}; {len(res)} MCCs tested, BH-FDR 5%")
print(f"{len(high_risk)} MCCs riskier after FDR control:", sorted(high_risk["mcc"].tolist()))
res.sort_values("p_value").head(6).round(4)
''',
    ),
    Case(
        id="h32-multiple-comparisons-ruleset-by-country",
        family="multiple_comparisons",
        split="holdout32",
        twin="h32-multiple-comparisons-ruleset-by-country-sound",
        setup=_RULES_SETUP,
        note=("the rules_v7 A/B test is re-tested in each of 18 issuer countries with a z-test at "
              "0.05 and the uncorrected 'wins' are reported as per-country rollout decisions"),
        code='''from statsmodels.stats.proportion import proportions_ztest


def country_readout(df):
    g = df.groupby("arm")["confirmed_fraud"].agg(["sum", "count"])
    c, t = g.loc["control"], g.loc["rules_v7"]
    z, p = proportions_ztest([t["sum"], c["sum"]], [t["count"], c["count"]])
    return pd.Series({"ctl_bps": 1e4 * c["sum"] / c["count"],
                      "v7_bps": 1e4 * t["sum"] / t["count"], "z": z, "p": p})


readout = {cc: country_readout(df) for cc, df in ab.groupby("issuer_country")}
readout = pd.DataFrame(readout).T
readout["significant"] = readout["p"] < 0.05
rollout = readout.index[readout["significant"] & (readout["v7_bps"] < readout["ctl_bps"])]
print(f"v7 significantly reduces fraud in: {list(rollout)} -> enable v7 there")
readout.round(3).sort_values("p")
''',
    ),
    Case(
        id="h32-multiple-comparisons-ruleset-by-country-sound",
        family=None,
        split="holdout32",
        twin="h32-multiple-comparisons-ruleset-by-country",
        setup=_RULES_SETUP,
        note=("the 18 per-country z-tests are Holm-adjusted for familywise error before any "
              "country-level rollout decision is made"),
        code='''from statsmodels.stats.proportion import proportions_ztest
from statsmodels.stats.multitest import multipletests


def country_readout(df):
    g = df.groupby("arm")["confirmed_fraud"].agg(["sum", "count"])
    c, t = g.loc["control"], g.loc["rules_v7"]
    z, p = proportions_ztest([t["sum"], c["sum"]], [t["count"], c["count"]])
    return pd.Series({"ctl_bps": 1e4 * c["sum"] / c["count"],
                      "v7_bps": 1e4 * t["sum"] / t["count"], "z": z, "p": p})


readout = {cc: country_readout(df) for cc, df in ab.groupby("issuer_country")}
readout = pd.DataFrame(readout).T
readout["significant"], readout["p_holm"], _, _ = multipletests(readout["p"], method="holm")
rollout = readout.index[readout["significant"] & (readout["v7_bps"] < readout["ctl_bps"])]
print(f"{len(readout)} countries tested (Holm-adjusted); v7 wins in: {list(rollout)}")
readout.round(3).sort_values("p")
''',
    ),
]
