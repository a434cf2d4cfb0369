from bench.critic_corpus import Case

_FROST_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3431)
years = np.arange(1981, 2021)
stations = [f"{s}" for s in rng.choice(np.arange(10100, 10999), 48, replace=False)]
elev = rng.integers(20, 900, len(stations))
base = 35 + 0.04 * elev
rows = []
for st, b, z in zip(stations, base, elev):
    trend = -0.35 if z > 750 else 0.0          # only the few high stations really change
    fd = rng.poisson(np.clip(b + trend * (years - 1981), 1, None))
    for y, v in zip(years, fd):
        rows.append((st, z, y, v))
frost = pd.DataFrame(rows, columns=["station", "elev_m", "year", "frost_days"])
'''

_FROST_FLAWED = '''
from scipy.stats import kendalltau

# Mann-Kendall (Kendall tau vs year) for annual frost-day counts at every station
res = []
for st, g in frost.groupby("station"):
    tau, p = kendalltau(g.year, g.frost_days)
    slope = np.polyfit(g.year, g.frost_days, 1)[0] * 10
    res.append({"station": st, "elev_m": g.elev_m.iat[0], "tau": tau, "p": p,
                "slope_per_dec": slope})
res = pd.DataFrame(res).set_index("station")

sig = res[res.p < 0.05].sort_values("p")
print(f"{len(sig)} of {len(res)} stations show a significant frost-day trend (p < 0.05)")
sig.round(3)
'''

_FROST_SOUND = '''
from scipy.stats import kendalltau
from statsmodels.stats.multitest import multipletests

# Mann-Kendall (Kendall tau vs year) for annual frost-day counts at every station
res = []
for st, g in frost.groupby("station"):
    tau, p = kendalltau(g.year, g.frost_days)
    slope = np.polyfit(g.year, g.frost_days, 1)[0] * 10
    res.append({"station": st, "elev_m": g.elev_m.iat[0], "tau": tau, "p": p,
                "slope_per_dec": slope})
res = pd.DataFrame(res).set_index("station")

# 48 local tests -> control the false discovery rate across the network (Wilks 2016)
res["reject"], res["q"], _, _ = multipletests(res.p, alpha=0.05, method="fdr_bh")
sig = res[res.reject].sort_values("p")
print(f"{len(sig)} of {len(res)} stations with a frost-day trend at FDR 5% "
      f"({(res.p < 0.05).sum()} at uncorrected p < 0.05)")
sig.round(3)
'''

_ENSO_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3432)
years = np.arange(1951, 2021)
oni_djf = rng.normal(0, 0.9, len(years)).round(1)
phase = pd.Series(np.select([oni_djf >= 0.5, oni_djf <= -0.5], ["EN", "LN"], "neutral"),
                  index=years, name="enso")
idx = pd.date_range("1951-01", "2020-12", freq="MS")
mon = pd.DataFrame({"date": idx})
mon["year"], mon["month"] = mon.date.dt.year, mon.date.dt.month
mon["enso"] = mon.year.map(phase)
djf_en = mon.month.isin([12, 1, 2]) & (mon.enso == "EN")
mon["pr_anom_pct"] = (rng.gamma(2.0, 50, len(mon)) - 100 + np.where(djf_en, 70, 0)).round(1)
mon["tx_anom_c"] = rng.normal(0, 1.1, len(mon)).round(2)
mon["gust_anom_ms"] = rng.normal(0, 2.0, len(mon)).round(2)
'''

_ENSO_FLAWED = '''
from scipy.stats import mannwhitneyu

# El Nino vs La Nina composites, month by month, for the three station variables
en_ln = mon[mon.enso.isin(["EN", "LN"])]
out = []
for (var, m), g in en_ln.melt(id_vars=["month", "enso"],
                               value_vars=["pr_anom_pct", "tx_anom_c", "gust_anom_ms"]
                               ).groupby(["variable", "month"]):
    en, ln = g.value[g.enso == "EN"], g.value[g.enso == "LN"]
    out.append((var, m, en.median() - ln.median(), mannwhitneyu(en, ln).pvalue))
out = pd.DataFrame(out, columns=["variable", "month", "EN_minus_LN", "p"])

print("ENSO-sensitive months (p < 0.05):")
out[out.p < 0.05].round(3)
'''

_ENSO_SOUND = '''
from scipy.stats import mannwhitneyu
from statsmodels.stats.multitest import multipletests

# El Nino vs La Nina composites, month by month, for the three station variables
en_ln = mon[mon.enso.isin(["EN", "LN"])]
out = []
for (var, m), g in en_ln.melt(id_vars=["month", "enso"],
                               value_vars=["pr_anom_pct", "tx_anom_c", "gust_anom_ms"]
                               ).groupby(["variable", "month"]):
    en, ln = g.value[g.enso == "EN"], g.value[g.enso == "LN"]
    out.append((var, m, en.median() - ln.median(), mannwhitneyu(en, ln).pvalue))
out = pd.DataFrame(out, columns=["variable", "month", "EN_minus_LN", "p"])

# 36 month x variable tests: Holm adjustment before calling anything ENSO-sensitive
out["p_holm"] = multipletests(out.p, method="holm")[1]
print(f"{(out.p < 0.05).sum()} of {len(out)} raw p < 0.05; after Holm:")
out[out.p_holm < 0.05].round(3)
'''

CASES: list[Case] = [
    Case(
        id="h34-mc-frost-day-trends-48-stations",
        family="multiple_comparisons",
        setup=_FROST_SETUP,
        code=_FROST_FLAWED,
        twin="h34-mc-frost-day-trends-fdr",
        note="48 station-wise Mann-Kendall tests and every p < 0.05 is reported as a significant "
             "trend with no field-significance / FDR control",
        split="holdout34",
    ),
    Case(
        id="h34-mc-frost-day-trends-fdr",
        family=None,
        setup=_FROST_SETUP,
        code=_FROST_SOUND,
        twin="h34-mc-frost-day-trends-48-stations",
        note="same 48 trend tests with Benjamini-Hochberg FDR control across the network",
        split="holdout34",
    ),
    Case(
        id="h34-mc-enso-composites-36-tests",
        family="multiple_comparisons",
        setup=_ENSO_SETUP,
        code=_ENSO_FLAWED,
        twin="h34-mc-enso-composites-holm",
        note="36 month-by-variable Mann-Whitney tests, the p < 0.05 ones are listed as "
             "ENSO-sensitive months without any multiplicity adjustment",
        split="holdout34",
    ),
    Case(
        id="h34-mc-enso-composites-holm",
        family=None,
        setup=_ENSO_SETUP,
        code=_ENSO_SOUND,
        twin="h34-mc-enso-composites-36-tests",
        note="same 36 composite tests, Holm-adjusted p-values decide which months are reported",
        split="holdout34",
    ),
]
