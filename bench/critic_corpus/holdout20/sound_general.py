from bench.critic_corpus import Case

_SETUP_GLM = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(7007)
n = 8000
mtpl = pd.DataFrame({
    "driver_age_band": rng.choice(["17-24", "25-39", "40-59", "60+"], n,
                                  p=[0.1, 0.35, 0.4, 0.15]),
    "vehicle_group": rng.choice(["A", "B", "C"], n, p=[0.5, 0.35, 0.15]),
    "urban": rng.binomial(1, 0.45, n),
    "exposure": np.round(rng.uniform(0.05, 1.0, n), 3),
})
age_eff = mtpl["driver_age_band"].map({"17-24": 0.7, "25-39": 0.1, "40-59": 0.0, "60+": 0.15})
veh_eff = mtpl["vehicle_group"].map({"A": 0.0, "B": 0.2, "C": 0.45})
lam = np.exp(-2.6 + age_eff + veh_eff + 0.3 * mtpl["urban"]) * mtpl["exposure"]
mtpl["claim_count"] = rng.poisson(lam)
'''

_CODE_GLM = '''
import statsmodels.api as sm
import statsmodels.formula.api as smf

freq = smf.glm("claim_count ~ C(driver_age_band, Treatment('40-59')) + C(vehicle_group) + urban",
               data=mtpl, family=sm.families.Poisson(),
               offset=np.log(mtpl["exposure"])).fit()
print(f"deviance / df = {freq.deviance / freq.df_resid:.3f}, "
      f"Pearson chi2 / df = {freq.pearson_chi2 / freq.df_resid:.3f}")
rel = pd.DataFrame({"relativity": np.exp(freq.params),
                    "lo95": np.exp(freq.conf_int()[0]), "hi95": np.exp(freq.conf_int()[1])})
rel.round(3)
'''

_SETUP_FF = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(1234)
idx = pd.period_range("2010-01", periods=168, freq="M").to_timestamp("M")
ff = pd.DataFrame({"mkt_rf": rng.normal(0.007, 0.043, 168),
                   "smb": rng.normal(0.001, 0.025, 168),
                   "hml": rng.normal(0.0, 0.028, 168),
                   "rf": np.r_[np.full(72, 0.0001), np.linspace(0.0001, 0.0042, 96)]}, index=idx)
e = np.zeros(168)
for t in range(1, 168):
    e[t] = 0.3 * e[t - 1] + rng.normal(0, 0.012)
ff["fund_ret"] = (ff["rf"] + 0.0008 + 0.95 * ff["mkt_rf"] + 0.25 * ff["smb"]
                  - 0.1 * ff["hml"] + e)
'''

_CODE_FF = '''
import statsmodels.formula.api as smf

ff["fund_xs"] = ff["fund_ret"] - ff["rf"]
fit = smf.ols("fund_xs ~ mkt_rf + smb + hml", data=ff).fit(cov_type="HAC",
                                                          cov_kwds={"maxlags": 6})
alpha_ann = 12 * fit.params["Intercept"]
lo, hi = 12 * fit.conf_int().loc["Intercept"]
ir = alpha_ann / (fit.resid.std() * np.sqrt(12))
print(f"{len(ff)} months; annualised alpha {alpha_ann:.2%} (95% CI {lo:.2%} to {hi:.2%}), "
      f"HAC p = {fit.pvalues['Intercept']:.3f}, information ratio {ir:.2f}")
fit.params.to_frame("coef").join(fit.bse.rename("hac_se")).round(4)
'''

_SETUP_KS = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(2468)
n = 6000
cards = pd.DataFrame({
    "app_month": pd.period_range("2022-01", periods=24, freq="M")[rng.integers(0, 24, n)],
    "bureau_score": rng.normal(620, 70, n).round(),
    "income_k": rng.lognormal(3.4, 0.5, n).round(1),
    "revolving_util": rng.beta(2, 3, n).round(3),
    "n_searches_6m": rng.poisson(1.2, n),
})
lin = (-1.0 - 0.008 * (cards["bureau_score"] - 620) + 1.6 * cards["revolving_util"]
       + 0.25 * cards["n_searches_6m"] - 0.01 * cards["income_k"] - 1.2)
cards["bad_flag"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
'''

_CODE_KS = '''
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

feats = ["bureau_score", "income_k", "revolving_util", "n_searches_6m"]
dev = cards[cards["app_month"] < pd.Period("2023-07", "M")]
oot = cards[cards["app_month"] >= pd.Period("2023-07", "M")].copy()
lr = LogisticRegression(max_iter=1000).fit(dev[feats], dev["bad_flag"])
oot["pd"] = lr.predict_proba(oot[feats])[:, 1]

srt = oot.sort_values("pd", ascending=False)
cum_bad = srt["bad_flag"].cumsum() / srt["bad_flag"].sum()
cum_good = (1 - srt["bad_flag"]).cumsum() / (1 - srt["bad_flag"]).sum()
ks = (cum_bad - cum_good).abs().max()
auc = roc_auc_score(oot["bad_flag"], oot["pd"])
print(f"OOT (n={len(oot)}): AUC {auc:.3f}, Gini {2 * auc - 1:.3f}, KS {ks:.3f}")

oot["decile"] = pd.qcut(oot["pd"].rank(method="first", ascending=False), 10,
                        labels=range(1, 11))
lift = oot.groupby("decile", observed=True).agg(n=("bad_flag", "size"),
                                                bad_rate=("bad_flag", "mean"),
                                                mean_pd=("pd", "mean"))
lift["lift"] = lift["bad_rate"] / oot["bad_flag"].mean()
lift.round(3)
'''

_SETUP_CL = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(1357)
ays = list(range(2016, 2024))
pattern = np.array([0.38, 0.27, 0.14, 0.09, 0.05, 0.03, 0.02, 0.02])
cells = {}
for i, ay in enumerate(ays):
    ult = 5.0e6 * (1.04 ** i) * rng.lognormal(0, 0.08)
    inc = ult * pattern * rng.lognormal(0, 0.1, 8)
    cum = np.cumsum(inc)
    cells[ay] = [cum[d] if d < len(ays) - i else np.nan for d in range(8)]
tri = pd.DataFrame(cells, index=range(1, 9)).T.rename_axis(index="ay", columns="dev")
'''

_CODE_CL = '''
dev_cols = tri.columns
ldf = {}
for d in dev_cols[:-1]:
    both = tri[[d, d + 1]].dropna()
    ldf[d] = both[d + 1].sum() / both[d].sum()
ldf = pd.Series(ldf, name="vol_wtd_ldf")
cdf = ldf[::-1].cumprod()[::-1].reindex(dev_cols, fill_value=1.0)

last_dev = tri.notna().sum(axis=1)
latest = pd.Series([tri.loc[ay, last_dev[ay]] for ay in tri.index], index=tri.index)
res = pd.DataFrame({"latest_paid": latest, "cdf": cdf.loc[last_dev].to_numpy()})
res["ultimate"] = res["latest_paid"] * res["cdf"]
res["ibnr"] = res["ultimate"] - res["latest_paid"]
print(ldf.round(4).to_dict())
print(f"total IBNR GBP {res['ibnr'].sum() / 1e6:.2f}m (tail factor assumed 1.0)")
res.round(3)
'''

_SETUP_RR = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(8642)
buckets = ["current", "1-29", "30-59", "60-89", "90+"]
P = np.array([[0.95, 0.05, 0.00, 0.00, 0.00],
              [0.55, 0.25, 0.20, 0.00, 0.00],
              [0.25, 0.10, 0.25, 0.40, 0.00],
              [0.10, 0.02, 0.08, 0.25, 0.55],
              [0.02, 0.00, 0.00, 0.03, 0.95]])
state = rng.choice(5, 3000, p=[0.85, 0.07, 0.04, 0.02, 0.02])
recs = []
for m in pd.period_range("2024-01", periods=7, freq="M"):
    recs.append(pd.DataFrame({"account_id": np.arange(3000), "month": m,
                              "bucket": np.array(buckets)[state]}))
    state = np.array([rng.choice(5, p=P[s]) for s in state])
panel = pd.concat(recs, ignore_index=True)
'''

_CODE_RR = '''
panel = panel.sort_values(["account_id", "month"])
panel["next_bucket"] = panel.groupby("account_id")["bucket"].shift(-1)
moves = panel.dropna(subset=["next_bucket"])
print(f"{len(moves)} account-month transitions from {moves['account_id'].nunique()} accounts "
      f"({len(panel) - len(moves)} final-month rows have no next month)")
order = ["current", "1-29", "30-59", "60-89", "90+"]
counts = pd.crosstab(moves["bucket"], moves["next_bucket"]).reindex(index=order, columns=order,
                                                                      fill_value=0)
roll = counts.div(counts.sum(axis=1), axis=0)
roll.insert(0, "n_from", counts.sum(axis=1))
roll.round(3)
'''

CASES: list[Case] = [
    Case(id="h20-sound-mtpl-poisson-offset", family=None, code=_CODE_GLM, setup=_SETUP_GLM,
         note="Poisson frequency GLM with log-exposure offset, dispersion checked, "
              "relativities with Wald CIs", split="holdout20"),
    Case(id="h20-sound-fund-ff3-hac-alpha", family=None, code=_CODE_FF, setup=_SETUP_FF,
         note="single pre-specified three-factor regression on excess returns with HAC "
              "errors for autocorrelated residuals", split="holdout20"),
    Case(id="h20-sound-cards-oot-ks-lift", family=None, code=_CODE_KS, setup=_SETUP_KS,
         note="scorecard fit on development months, KS/AUC/lift computed once on a later "
              "out-of-time window", split="holdout20"),
    Case(id="h20-sound-chain-ladder-ibnr", family=None, code=_CODE_CL, setup=_SETUP_CL,
         note="volume-weighted chain ladder on a complete cumulative triangle with the tail "
              "assumption stated", split="holdout20"),
    Case(id="h20-sound-collections-roll-rates", family=None, code=_CODE_RR, setup=_SETUP_RR,
         note="delinquency roll-rate matrix from account-month transitions; dropped "
              "final-month rows counted and explained", split="holdout20"),
]
