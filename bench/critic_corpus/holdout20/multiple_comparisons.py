from bench.critic_corpus import Case

_SETUP_FAC = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(919)
months = pd.period_range("2004-01", periods=240, freq="M").to_timestamp("M")
names = ["accruals", "asset_growth", "beta_arb", "book_mkt", "cash_prof", "chg_emp",
         "earn_surprise", "gross_prof", "idio_vol", "inv_cap", "lt_reversal", "max_ret",
         "mom_12_1", "net_issuance", "op_leverage", "pead", "roe", "sales_growth",
         "short_int", "size", "st_reversal", "tang", "turnover", "zscore", "div_yield",
         "ind_mom", "sue_rev", "r_and_d", "analyst_disp", "illiq"]
mkt = rng.normal(0.006, 0.045, 240)
ls = pd.DataFrame(rng.normal(0.0, 0.03, (240, 30)), index=months, columns=names)
ls = ls + np.outer(mkt, rng.normal(0, 0.15, 30))
ls["gross_prof"] += 0.006
factors = pd.DataFrame({"mkt_rf": mkt}, index=months)
'''

_FLAW_FAC = '''
import statsmodels.api as sm

X = sm.add_constant(factors["mkt_rf"])
rows = []
for sig in ls.columns:
    res = sm.OLS(ls[sig], X).fit(cov_type="HAC", cov_kwds={"maxlags": 6})
    rows.append({"signal": sig, "alpha_ann_pct": 1200 * res.params["const"],
                 "t_alpha": res.tvalues["const"], "p_alpha": res.pvalues["const"]})
alphas = pd.DataFrame(rows).set_index("signal").sort_values("p_alpha")
winners = alphas[alphas["p_alpha"] < 0.05]
print(f"{len(winners)} of {len(alphas)} anomalies earn significant CAPM alpha (HAC, 6 lags):")
winners.round(3)
'''

_SOUND_FAC = '''
import statsmodels.api as sm
from statsmodels.stats.multitest import multipletests

X = sm.add_constant(factors["mkt_rf"])
rows = []
for sig in ls.columns:
    res = sm.OLS(ls[sig], X).fit(cov_type="HAC", cov_kwds={"maxlags": 6})
    rows.append({"signal": sig, "alpha_ann_pct": 1200 * res.params["const"],
                 "t_alpha": res.tvalues["const"], "p_alpha": res.pvalues["const"]})
alphas = pd.DataFrame(rows).set_index("signal").sort_values("p_alpha")
alphas["p_holm"] = multipletests(alphas["p_alpha"], method="holm")[1]
winners = alphas[alphas["p_holm"] < 0.05]
print(f"{len(winners)} of {len(alphas)} anomalies keep significant CAPM alpha "
      f"after Holm correction (HAC, 6 lags):")
alphas.head(6).round(3)
'''

_SETUP_REG = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(6021)
regions = [f"R{r:02d}" for r in range(1, 25)]
n = 12000
pol = pd.DataFrame({
    "policy_id": np.arange(n),
    "region": rng.choice(regions, n),
    "exposure_yrs": np.round(rng.uniform(0.1, 1.0, n), 3),
})
rate = np.where(pol["region"] == "R07", 0.095, 0.07)
pol["claim_cnt"] = rng.poisson(rate * pol["exposure_yrs"])
'''

_FLAW_REG = '''
from scipy import stats

by_reg = pol.groupby("region")[["claim_cnt", "exposure_yrs"]].sum()
tot_c, tot_e = by_reg.sum()

def rate_test(c, e):
    frac = e / tot_e
    return stats.binomtest(int(c), int(tot_c), frac).pvalue

by_reg["freq"] = by_reg["claim_cnt"] / by_reg["exposure_yrs"]
by_reg["relativity"] = by_reg["freq"] / (tot_c / tot_e)
by_reg["p_value"] = [rate_test(c, e) for c, e in zip(by_reg["claim_cnt"],
                                                       by_reg["exposure_yrs"])]
loadings = by_reg.query("p_value < 0.05").sort_values("relativity", ascending=False)
print(f"portfolio frequency {tot_c / tot_e:.4f}; regions needing a rating adjustment:")
loadings.round(4)
'''

_SOUND_REG = '''
from scipy import stats
from statsmodels.stats.multitest import multipletests

by_reg = pol.groupby("region")[["claim_cnt", "exposure_yrs"]].sum()
tot_c, tot_e = by_reg.sum()

def rate_test(c, e):
    frac = e / tot_e
    return stats.binomtest(int(c), int(tot_c), frac).pvalue

by_reg["freq"] = by_reg["claim_cnt"] / by_reg["exposure_yrs"]
by_reg["relativity"] = by_reg["freq"] / (tot_c / tot_e)
by_reg["p_value"] = [rate_test(c, e) for c, e in zip(by_reg["claim_cnt"],
                                                       by_reg["exposure_yrs"])]
by_reg["p_bh"] = multipletests(by_reg["p_value"], method="fdr_bh")[1]
loadings = by_reg.query("p_bh < 0.05").sort_values("relativity", ascending=False)
print(f"portfolio frequency {tot_c / tot_e:.4f}; {len(loadings)} of {len(by_reg)} regions "
      f"differ at FDR 5% (Benjamini-Hochberg):")
by_reg.sort_values("p_value").head(5).round(4)
'''

CASES: list[Case] = [
    Case(id="h20-multcomp-anomaly-alphas-unadjusted", family="multiple_comparisons",
         code=_FLAW_FAC, setup=_SETUP_FAC, twin="h20-multcomp-anomaly-alphas-holm",
         note="30 anomaly portfolios each tested for alpha at 5% and the p<0.05 ones reported "
              "as significant with no multiplicity correction",
         split="holdout20"),
    Case(id="h20-multcomp-anomaly-alphas-holm", family=None, code=_SOUND_FAC,
         setup=_SETUP_FAC, twin="h20-multcomp-anomaly-alphas-unadjusted",
         note="same 30 HAC alpha tests, significance judged on Holm-adjusted p-values",
         split="holdout20"),
    Case(id="h20-multcomp-region-frequency-unadjusted", family="multiple_comparisons",
         code=_FLAW_REG, setup=_SETUP_REG, twin="h20-multcomp-region-frequency-bh",
         note="24 regional claim-frequency tests at 5% with every p<0.05 region proposed for "
              "a rating loading, no correction for 24 tests",
         split="holdout20"),
    Case(id="h20-multcomp-region-frequency-bh", family=None, code=_SOUND_REG,
         setup=_SETUP_REG, twin="h20-multcomp-region-frequency-unadjusted",
         note="same 24 exposure-based rate tests with Benjamini-Hochberg FDR control",
         split="holdout20"),
]
