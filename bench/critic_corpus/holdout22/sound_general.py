from bench.critic_corpus import Case

_WEIBULL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1010)
# accelerated bench life test of 24 solenoid valves, run to failure (no suspensions)
df_life = pd.DataFrame({
    "valve_sn": [f"SV-{880 + i}" for i in range(24)],
    "rig": np.tile(["R1", "R2", "R3"], 8),
    "cycles_to_fail": (rng.weibull(2.1, 24) * 1.45e6).round(-2),
})
'''

_WEIBULL_CODE = '''
from scipy import stats

t = df_life.cycles_to_fail.to_numpy() / 1e6          # M cycles
assert len(t) == 24 and (t > 0).all()

def b_life(beta, eta, q=0.10):
    return eta * (-np.log(1 - q)) ** (1 / beta)

beta, _, eta = stats.weibull_min.fit(t, floc=0)
b10 = b_life(beta, eta)

# parametric bootstrap for the B10 interval (seeded)
rng_bs = np.random.default_rng(7)
bs = []
for _ in range(200):
    tb = stats.weibull_min.rvs(beta, scale=eta, size=t.size, random_state=rng_bs)
    bb, _, eb = stats.weibull_min.fit(tb, floc=0)
    bs.append(b_life(bb, eb))
lo, hi = np.percentile(bs, [5, 95])
ks = stats.kstest(t, "weibull_min", args=(beta, 0, eta))
print(f"n = {t.size} failures, Weibull beta = {beta:.2f}, eta = {eta:.3f} M cycles")
print(f"B10 life = {b10:.3f} M cycles (90% bootstrap CI {lo:.3f} .. {hi:.3f})")
print(f"KS check of fit (indicative, parameters estimated): D = {ks.statistic:.3f}")
'''

_GRR_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1357)
parts = rng.normal(12.000, 0.040, 10)                  # true part sizes, mm
op_bias = {"ANA": 0.000, "BEN": 0.006, "CHO": -0.003}
rows = []
for p, size in enumerate(parts, start=1):
    for op, b in op_bias.items():
        for trial in range(1, 4):
            rows.append((f"P{p:02d}", op, trial, size + b + rng.normal(0, 0.004)))
df_grr = pd.DataFrame(rows, columns=["part", "operator", "trial", "meas_mm"])
df_grr["meas_mm"] = df_grr.meas_mm.round(4)
TOL = 0.30   # total tolerance width, mm
'''

_GRR_CODE = '''
import statsmodels.api as sm
import statsmodels.formula.api as smf

m = smf.ols("meas_mm ~ C(part) * C(operator)", data=df_grr).fit()
a = sm.stats.anova_lm(m, typ=2)
ms = a["sum_sq"] / a["df"]
p_, o_, r_ = 10, 3, 3
ms_p, ms_o = ms["C(part)"], ms["C(operator)"]
ms_po, ms_e = ms["C(part):C(operator)"], ms["Residual"]

var_rep = ms_e
var_po = max((ms_po - ms_e) / r_, 0.0)
var_op = max((ms_o - ms_po) / (p_ * r_), 0.0)
var_part = max((ms_p - ms_po) / (o_ * r_), 0.0)
var_grr = var_rep + var_op + var_po
var_tot = var_grr + var_part

res = {"repeatability": var_rep, "reproducibility": var_op + var_po,
       "GRR": var_grr, "part-to-part": var_part, "total": var_tot}
tab = pd.DataFrame({"var_mm2": res})
tab["%study_var"] = 100 * np.sqrt(tab.var_mm2 / var_tot)
tab["%tolerance"] = 100 * 6 * np.sqrt(tab.var_mm2) / TOL
tab.loc[["part-to-part", "total"], "%tolerance"] = np.nan   # only meaningful for GRR rows
ndc = int(1.41 * np.sqrt(var_part / var_grr))
print(f"interaction p = {a.loc['C(part):C(operator)', 'PR(>F)']:.3f}, ndc = {ndc}")
tab.round({"var_mm2": 8, "%study_var": 1, "%tolerance": 1})
'''

_DOE_SETUP = '''
import itertools

import numpy as np
import pandas as pd

rng = np.random.default_rng(2323)
runs = []
for rep in (1, 2):
    for A, B, C in itertools.product((-1, 1), repeat=3):
        runs.append({"rep": rep, "temp": A, "press": B, "hold": C})
for k in range(4):                                    # centre points
    runs.append({"rep": 0, "temp": 0, "press": 0, "hold": 0})
df_doe = pd.DataFrame(runs).sample(frac=1, random_state=5).reset_index(drop=True)
df_doe.insert(0, "run_order", np.arange(1, len(df_doe) + 1))
x = df_doe
df_doe["pull_n"] = (412 + 18 * x.temp + 9 * x.press + 2 * x.hold + 6 * x.temp * x.press
                    + rng.normal(0, 5, len(x))).round(1)
# coded levels: temp 210/230 C, press 3/5 bar, hold 1.5/2.5 s (heat-staking, pull force N)
'''

_DOE_CODE = '''
import statsmodels.api as sm
import statsmodels.formula.api as smf

fact = df_doe[df_doe.rep > 0]
ctr = df_doe[df_doe.rep == 0]
m = smf.ols("pull_n ~ temp * press * hold", data=fact).fit()
print(f"2^3 full factorial, 2 replicates (n = {int(m.nobs)}), residual df = {int(m.df_resid)}")
print(f"curvature check: centre mean {ctr.pull_n.mean():.1f} N "
      f"vs factorial mean {fact.pull_n.mean():.1f} N")
eff = pd.DataFrame({"effect_N": 2 * m.params.drop("Intercept"),
                    "p": m.pvalues.drop("Intercept")})
print(sm.stats.anova_lm(m, typ=2).round(3))
eff.round(3)
'''

_SPC_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4455)
ts = pd.date_range("2024-02-05 06:00", periods=50, freq="2h")
x = rng.normal(8.000, 0.012, (50, 5))          # dose fill weight, g; 5 per subgroup
x[38:, :] += 0.019                             # nozzle change after subgroup 38
df_fill = pd.DataFrame(x.round(4), index=ts, columns=[f"s{i}" for i in range(1, 6)])
df_fill.index.name = "subgroup_ts"
'''

_SPC_CODE = '''
A2, D3, D4 = 0.577, 0.0, 2.114           # n = 5 control-chart constants
xbar = df_fill.mean(axis=1)
rng_sg = df_fill.max(axis=1) - df_fill.min(axis=1)

ph1 = slice(0, 25)                        # limits from the first 25 subgroups only
xbb, rbar = xbar.iloc[ph1].mean(), rng_sg.iloc[ph1].mean()
ucl, lcl = xbb + A2 * rbar, xbb - A2 * rbar
assert rng_sg.iloc[ph1].between(D3 * rbar, D4 * rbar).all(), "phase-1 R chart not in control"
print(f"X-bar chart: CL = {xbb:.4f}, UCL = {ucl:.4f}, LCL = {lcl:.4f}   (R-bar = {rbar:.4f})")

ph2 = pd.DataFrame({"xbar": xbar.iloc[25:], "R": rng_sg.iloc[25:]})
ph2["rule1"] = (ph2.xbar > ucl) | (ph2.xbar < lcl)
ph2["R_ooc"] = ph2.R > D4 * rbar
print(f"phase-2 subgroups: {len(ph2)}, X-bar rule-1 signals: {int(ph2.rule1.sum())}, "
      f"R signals: {int(ph2.R_ooc.sum())}")
ph2[ph2.rule1 | ph2.R_ooc].round(4)
'''

_SCRAP_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(9090)
lines = {"L1": 0.018, "L2": 0.021, "L3": 0.034, "L4": 0.019}
rows = []
for wk in pd.date_range("2024-01-01", periods=13, freq="W-MON"):
    for ln, p in lines.items():
        made = int(rng.poisson(4200))
        rows.append((wk, ln, made, int(rng.binomial(made, p))))
df_scr = pd.DataFrame(rows, columns=["week", "line", "units", "scrap"])
'''

_SCRAP_CODE = '''
from scipy.stats import chi2_contingency
from statsmodels.stats.proportion import proportion_confint

q = df_scr.groupby("line")[["units", "scrap"]].sum()
lo, hi = proportion_confint(q.scrap, q.units, alpha=0.05, method="wilson")
q["scrap_pct"] = 100 * q.scrap / q.units
q["ci_lo_pct"], q["ci_hi_pct"] = 100 * lo, 100 * hi

tbl = np.c_[q.scrap, q.units - q.scrap]
chi2, p, dof, _ = chi2_contingency(tbl)
wk_rate = df_scr.assign(r=df_scr.scrap / df_scr.units).pivot(index="week", columns="line",
                                                              values="r")
print(f"Q1 scrap, {len(df_scr.week.unique())} weeks x {len(q)} lines")
print(f"homogeneity across lines: chi2 = {chi2:.1f}, dof = {dof}, p = {p:.1e}")
print("weekly scrap % sd by line (stability check):",
      (100 * wk_rate.std()).round(2).to_dict())
q.round(2)
'''

CASES: list[Case] = [
    Case(
        id="h22-sound-weibull-b10-valve-life",
        family=None,
        code=_WEIBULL_CODE,
        setup=_WEIBULL_SETUP,
        note="Weibull MLE on complete run-to-failure data, B10 with a seeded parametric "
             "bootstrap interval",
        split="holdout22",
    ),
    Case(
        id="h22-sound-gauge-rr-crossed-anova",
        family=None,
        code=_GRR_CODE,
        setup=_GRR_SETUP,
        note="crossed gauge R&R (10 parts x 3 operators x 3 trials) by ANOVA variance "
             "components, %study variation, %tolerance and ndc",
        split="holdout22",
    ),
    Case(
        id="h22-sound-doe-2k-heat-staking",
        family=None,
        code=_DOE_CODE,
        setup=_DOE_SETUP,
        note="replicated, randomised 2^3 factorial fit with full interaction model and ANOVA, "
             "centre points used for a curvature check",
        split="holdout22",
    ),
    Case(
        id="h22-sound-xbar-r-phase1-phase2",
        family=None,
        code=_SPC_CODE,
        setup=_SPC_SETUP,
        note="X-bar/R limits from phase-1 subgroups applied to later subgroups with standard "
             "n=5 constants",
        split="holdout22",
    ),
    Case(
        id="h22-sound-line-scrap-wilson-chi2",
        family=None,
        code=_SCRAP_CODE,
        setup=_SCRAP_SETUP,
        note="scrap rate per line with Wilson intervals and one chi-square homogeneity test, "
             "weekly spread shown as a stability check",
        split="holdout22",
    ),
]
