from bench.critic_corpus import Case

_SETUP_CAL = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(8008)
grade_pd = {"G1": 0.002, "G2": 0.005, "G3": 0.010, "G4": 0.020, "G5": 0.040,
            "G6": 0.080, "G7": 0.160}
n = 20000
book = pd.DataFrame({"obligor_id": np.arange(n),
                     "grade": rng.choice(list(grade_pd), n,
                                         p=[0.12, 0.2, 0.22, 0.2, 0.14, 0.08, 0.04])})
book["model_pd"] = book["grade"].map(grade_pd)
book["default_12m"] = rng.binomial(1, np.minimum(1.8 * book["model_pd"], 1))
'''

_FLAW_CAL = '''
cal = book.groupby("grade").agg(n=("default_12m", "size"), model_pd=("model_pd", "mean"),
                                odr=("default_12m", "mean"))
r = np.corrcoef(cal["model_pd"], cal["odr"])[0, 1]
print(f"correlation of model PD with observed default rate across grades: r = {r:.3f}")
print("calibration OK" if r > 0.9 else "recalibrate")
cal.round(4)
'''

_SOUND_CAL = '''
from scipy import stats

cal = book.groupby("grade").agg(n=("default_12m", "size"), d=("default_12m", "sum"),
                                model_pd=("model_pd", "mean"), odr=("default_12m", "mean"))
cal["o_over_e"] = cal["odr"] / cal["model_pd"]
cal["binom_p"] = [stats.binomtest(int(d), int(k), p).pvalue
                  for d, k, p in zip(cal["d"], cal["n"], cal["model_pd"])]
expected, observed = book["model_pd"].sum(), book["default_12m"].sum()
print(f"portfolio: {observed} defaults observed vs {expected:.0f} expected "
      f"(O/E = {observed / expected:.2f})")
print("calibration OK" if cal["binom_p"].min() > 0.05 / len(cal) else "recalibrate")
cal.round(4)
'''

_SETUP_HEDGE = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(5)
days = pd.bdate_range("2019-01-01", periods=1300)
r_airline = rng.normal(0.0009, 0.021, days.size)
r_jetfuel = rng.normal(0.0008, 0.019, days.size) + 0.05 * r_airline
prices = pd.DataFrame({"airline_eq": 40 * np.exp(np.cumsum(r_airline)),
                       "jet_fuel_fut": 2.1 * np.exp(np.cumsum(r_jetfuel))}, index=days)
'''

_FLAW_HEDGE = '''
corr = prices.corr().loc["airline_eq", "jet_fuel_fut"]
beta = np.polyfit(prices["jet_fuel_fut"], prices["airline_eq"], 1)[0]
print(f"airline equity vs jet fuel: correlation {corr:.2f}, hedge ratio {beta:.2f}")
print("strong co-movement - use jet fuel futures to hedge the equity position"
      if abs(corr) > 0.5 else "weak relationship - no hedge")
'''

_SOUND_HEDGE = '''
rets = np.log(prices).diff().dropna()
corr = rets.corr().loc["airline_eq", "jet_fuel_fut"]
beta = np.polyfit(rets["jet_fuel_fut"], rets["airline_eq"], 1)[0]
roll = rets["airline_eq"].rolling(126).corr(rets["jet_fuel_fut"]).dropna()
print(f"daily log-return correlation {corr:.2f}, hedge ratio {beta:.2f}; "
      f"126d rolling corr range {roll.min():.2f} to {roll.max():.2f}")
print("strong co-movement - use jet fuel futures to hedge the equity position"
      if abs(corr) > 0.5 else "weak relationship - no hedge")
'''

CASES: list[Case] = [
    Case(id="h20-corr-pd-calibration-by-grade", family="correlation_misuse",
         code=_FLAW_CAL, setup=_SETUP_CAL, twin="h20-corr-pd-calibration-binomial",
         note="high correlation between model PD and observed default rate taken as good "
              "calibration, though observed rates are ~1.8x the model PDs in every grade",
         split="holdout20"),
    Case(id="h20-corr-pd-calibration-binomial", family=None, code=_SOUND_CAL,
         setup=_SETUP_CAL, twin="h20-corr-pd-calibration-by-grade",
         note="calibration checked with observed/expected ratios and per-grade binomial "
              "tests (Bonferroni), not by correlation",
         split="holdout20"),
    Case(id="h20-corr-hedge-price-levels", family="correlation_misuse",
         code=_FLAW_HEDGE, setup=_SETUP_HEDGE, twin="h20-corr-hedge-log-returns",
         note="correlation and hedge ratio computed on two trending price levels (spurious "
              "random-walk correlation) to justify a hedge",
         split="holdout20"),
    Case(id="h20-corr-hedge-log-returns", family=None, code=_SOUND_HEDGE,
         setup=_SETUP_HEDGE, twin="h20-corr-hedge-price-levels",
         note="correlation and hedge ratio estimated on daily log returns, with rolling "
              "stability shown",
         split="holdout20"),
]
