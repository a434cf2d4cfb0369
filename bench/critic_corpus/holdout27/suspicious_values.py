from bench.critic_corpus import Case

_WX_SETUP = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(1505)
days = pd.date_range("2024-04-01", "2024-09-30", freq="D")
doy = days.dayofyear.to_numpy()
tmean = 15 + 7 * np.sin((doy - 110) / 365 * 2 * np.pi) + rng.normal(0, 2.2, days.size)
wx = pd.DataFrame({
    "date": days,
    "tmax_c": (tmean + 6 + rng.normal(0, 1.5, days.size)).round(1),
    "tmin_c": (tmean - 6 + rng.normal(0, 1.5, days.size)).round(1),
    "rain_mm": np.where(rng.random(days.size) < 0.35, rng.gamma(0.9, 7, days.size), 0).round(1),
})
# logger battery failures: the station writes -99.9 for every channel
outage = (wx["date"].between("2024-06-11", "2024-06-19")
          | wx["date"].between("2024-08-02", "2024-08-05"))
wx.loc[outage, ["tmax_c", "tmin_c", "rain_mm"]] = -99.9
wx.tail(3)
"""

_H2_SETUP = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(15)
n_geno, n_rep = 36, 3
traits = {  # (mean, genetic sd, residual sd)
    "grain_yield_t_ha": (7.8, 0.45, 0.55),
    "heading_days": (142, 2.2, 1.1),
    "plant_height_cm": (88, 5.5, 3.0),
    "tkw_g": (44, 2.4, 1.6),
    "grain_protein_pct": (11.9, 0.0, 0.45),
    "septoria_pct": (18, 4.0, 6.5),
}
g_eff = {t: rng.normal(0, gsd, n_geno) for t, (_, gsd, _) in traits.items()}
rows = []
for rep in range(1, n_rep + 1):
    r_eff = rng.normal(0, 0.3)
    for g in range(n_geno):
        rec = {"genotype": f"G{g + 1:03d}", "rep": rep}
        for t, (mu, _, esd) in traits.items():
            rec[t] = round(mu * (1 + 0.02 * r_eff) + g_eff[t][g] + rng.normal(0, esd), 2)
        rows.append(rec)
bt = pd.DataFrame(rows)
bt.describe().T[["mean", "std"]].round(2)
"""

CASES: list[Case] = [
    Case(
        id="h27-suspicious-values-weather-sentinel-in-totals",
        family="suspicious_values",
        setup=_WX_SETUP,
        code="""
wx["tmean_c"] = (wx["tmax_c"] + wx["tmin_c"]) / 2
wx["gdd_base0"] = wx["tmean_c"].clip(lower=0)

monthly = wx.set_index("date").resample("MS").agg(
    {"tmax_c": "mean", "tmin_c": "mean", "rain_mm": "sum", "gdd_base0": "sum"})
monthly.index = monthly.index.strftime("%b")
print(monthly.round(1))
print(f"Season (Apr-Sep): rain {wx['rain_mm'].sum():.0f} mm, "
      f"GDD {wx['gdd_base0'].sum():.0f} degC-days, mean Tmax {wx['tmax_c'].mean():.1f} degC")
""",
        twin="h27-suspicious-values-weather-sentinel-as-missing",
        note="The logger's -99.9 missing-value code is summed and averaged as real data: June "
             "and August rainfall come out negative, Tmax means drop and the season totals "
             "are wrong.",
        split="holdout27",
    ),
    Case(
        id="h27-suspicious-values-weather-sentinel-as-missing",
        family=None,
        setup=_WX_SETUP,
        code="""
# -99.9 is the logger's missing-value code, not a measurement
cols = ["tmax_c", "tmin_c", "rain_mm"]
wx[cols] = wx[cols].mask(wx[cols] <= -99)
print(f"days with logger outage: {wx['rain_mm'].isna().sum()} "
      f"({', '.join(wx.loc[wx['rain_mm'].isna(), 'date'].dt.strftime('%d %b'))})")

wx["tmean_c"] = (wx["tmax_c"] + wx["tmin_c"]) / 2
wx["gdd_base0"] = wx["tmean_c"].clip(lower=0)
monthly = wx.set_index("date").resample("MS").agg(
    tmax_c=("tmax_c", "mean"), tmin_c=("tmin_c", "mean"),
    rain_mm=("rain_mm", "sum"), gdd_base0=("gdd_base0", "sum"),
    days_missing=("rain_mm", lambda s: s.isna().sum()))
monthly.index = monthly.index.strftime("%b")
print(monthly.round(1))
n_ok = wx["rain_mm"].notna().sum()
print(f"Season (Apr-Sep), {n_ok} of {len(wx)} days recorded: rain >= {wx['rain_mm'].sum():.0f} mm"
      f", GDD >= {wx['gdd_base0'].sum():.0f} degC-days, mean Tmax {wx['tmax_c'].mean():.1f} degC")
""",
        twin="h27-suspicious-values-weather-sentinel-in-totals",
        note="The -99.9 code is set to missing, the outage days are listed and counted per "
             "month, and season totals are labelled as lower bounds over the recorded days.",
        split="holdout27",
    ),
    Case(
        id="h27-suspicious-values-negative-heritability",
        family="suspicious_values",
        setup=_H2_SETUP,
        code="""
import statsmodels.formula.api as smf
from statsmodels.stats.anova import anova_lm

def broad_sense_h2(df, trait, r):
    aov = anova_lm(smf.ols(f"{trait} ~ C(genotype) + C(rep)", data=df).fit())
    ms_g = aov.loc["C(genotype)", "mean_sq"]
    ms_e = aov.loc["Residual", "mean_sq"]
    var_g = (ms_g - ms_e) / r
    var_e = ms_e
    return {"trait": trait, "var_g": var_g, "var_e": var_e,
            "H2": var_g / (var_g + var_e / r)}

trait_cols = [c for c in bt.columns if c not in ("genotype", "rep")]
h2 = pd.DataFrame([broad_sense_h2(bt, t, r=bt["rep"].nunique()) for t in trait_cols])
h2 = h2.set_index("trait").sort_values("H2", ascending=False)
print("Entry-mean broad-sense heritability, 36 lines x 3 reps")
print(h2.round(3))
print(f"Mean H2 across traits = {h2['H2'].mean():.2f}")
""",
        twin="h27-suspicious-values-heritability-bounded",
        note="The ANOVA estimate of genetic variance for grain protein is negative and the "
             "table reports a negative variance and a negative heritability (and averages it) "
             "without comment.",
        split="holdout27",
    ),
    Case(
        id="h27-suspicious-values-heritability-bounded",
        family=None,
        setup=_H2_SETUP,
        code="""
import statsmodels.formula.api as smf
from statsmodels.stats.anova import anova_lm

def broad_sense_h2(df, trait, r):
    aov = anova_lm(smf.ols(f"{trait} ~ C(genotype) + C(rep)", data=df).fit())
    ms_g = aov.loc["C(genotype)", "mean_sq"]
    ms_e = aov.loc["Residual", "mean_sq"]
    raw = (ms_g - ms_e) / r
    # a variance cannot be negative: MS_g < MS_e means no detectable genetic variance
    var_g = max(raw, 0.0)
    return {"trait": trait, "var_g_raw": raw, "var_g": var_g, "var_e": ms_e,
            "H2": var_g / (var_g + ms_e / r), "p_geno": aov.loc["C(genotype)", "PR(>F)"]}

trait_cols = [c for c in bt.columns if c not in ("genotype", "rep")]
h2 = pd.DataFrame([broad_sense_h2(bt, t, r=bt["rep"].nunique()) for t in trait_cols])
h2 = h2.set_index("trait").sort_values("H2", ascending=False)
print("Entry-mean broad-sense heritability, 36 lines x 3 reps")
print(h2.round(3))
flag = h2.index[h2["var_g_raw"] < 0].tolist()
print(f"Negative ANOVA estimate of genetic variance (set to 0, H2 = 0): {flag}")
""",
        twin="h27-suspicious-values-negative-heritability",
        note="Negative method-of-moments genetic variance is truncated at zero, flagged, and "
             "shown with the genotype F-test p-value instead of being reported as a negative H2.",
        split="holdout27",
    ),
]
