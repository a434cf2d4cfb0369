from bench.critic_corpus import Case

_LRC_SETUP = '''
import numpy as np

rng = np.random.default_rng(7301)
ppfd = np.array([0, 25, 50, 100, 200, 400, 600, 900, 1200, 1500, 1800])   # umol m-2 s-1
leaves = {}
for leaf in [f"{pos}_L{k}" for pos in ("sun", "shade") for k in range(1, 6)]:
    amax = 22 if leaf.startswith("sun") else 11
    phi, theta, rd = 0.055, 0.75, 1.4 if leaf.startswith("sun") else 0.7
    amax_i = amax * rng.normal(1, 0.08)
    gross = ((phi * ppfd + amax_i
              - np.sqrt((phi * ppfd + amax_i) ** 2 - 4 * theta * phi * ppfd * amax_i))
             / (2 * theta))
    leaves[leaf] = gross - rd + rng.normal(0, 0.35, ppfd.size)
print("A_net (umol m-2 s-1) at", ppfd.size, "PPFD steps for", len(leaves), "leaves (LI-6800)")
'''

_LRC_CODE = '''
from scipy.optimize import curve_fit
from scipy import stats

def ndh(q, phi, amax, theta, rd):
    b = phi * q + amax
    return (b - np.sqrt(np.maximum(b ** 2 - 4 * theta * phi * q * amax, 0))) / (2 * theta) - rd

fits = {}
for leaf, a in leaves.items():
    p, cov = curve_fit(ndh, ppfd, a, p0=[0.05, 15, 0.7, 1.0],
                       bounds=([0, 0, 0.01, 0], [0.2, 60, 0.999, 5]))
    fits[leaf] = dict(zip(["phi", "Amax", "theta", "Rd"], p))
    fits[leaf]["Amax_se"] = np.sqrt(cov[1, 1])

print(f"{'leaf':10s} {'phi':>6} {'Amax':>6} {'(se)':>6} {'theta':>6} {'Rd':>5}")
for leaf, f in fits.items():
    print(f"{leaf:10s} {f['phi']:6.3f} {f['Amax']:6.1f} {f['Amax_se']:6.2f} "
          f"{f['theta']:6.2f} {f['Rd']:5.2f}")
sun = [f["Amax"] for k, f in fits.items() if k.startswith("sun")]
shade = [f["Amax"] for k, f in fits.items() if k.startswith("shade")]
t, p = stats.ttest_ind(sun, shade, equal_var=False)
print(f"Amax sun {np.mean(sun):.1f} vs shade {np.mean(shade):.1f}; leaf-level Welch "
      f"t = {t:.2f}, p = {p:.4f} (n = 5 leaves per canopy position)")
'''

_SRT_SETUP = '''
import numpy as np

rng = np.random.default_rng(2468)
n = 24
base = rng.normal(-2.0, 2.5, n)                       # SRT in dB SNR, omni program
omni = np.round(base + rng.normal(0, 0.8, n), 1)
beam = np.round(base - 1.6 + rng.standard_t(3, n) * 0.9, 1)   # adaptive directional program
pids = [f"HA{k:02d}" for k in range(1, n + 1)]
print(f"{n} hearing-aid users, Oldenburg sentence test SRT (dB SNR) in both programs")
'''

_SRT_CODE = '''
from scipy import stats

d = beam - omni
res = stats.wilcoxon(beam, omni)
boot = np.random.default_rng(99)
meds = np.array([np.median(boot.choice(d, d.size)) for _ in range(4000)])
lo, hi = np.percentile(meds, [2.5, 97.5])
print(f"median SRT omni {np.median(omni):.1f} dB SNR, directional {np.median(beam):.1f} dB SNR")
print(f"median paired difference {np.median(d):.2f} dB (bootstrap 95% CI {lo:.2f} to {hi:.2f})")
print(f"Wilcoxon signed-rank: W = {res.statistic:.0f}, p = {res.pvalue:.4f}, n = {d.size} pairs")
print(f"participants who improved by >= 1 dB: {(d <= -1).sum()} / {d.size}")
'''

_GAIT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1357)
rows = []
for i in range(28):
    grp = "exergame" if i < 14 else "usual_care"
    b0 = rng.normal(0.92, 0.15)
    slope = (0.035 if grp == "exergame" else 0.012) + rng.normal(0, 0.012)
    for wk in (0, 2, 4, 6, 8):
        if wk == 8 and rng.random() < 0.1:
            continue
        rows.append({"pid": f"S{i + 1:02d}", "group": grp, "week": wk,
                     "gait_speed_ms": round(b0 + slope * wk / 2 + rng.normal(0, 0.04), 3)})
gait = pd.DataFrame(rows)
gait["month"] = gait.week / 4
gait.pivot_table(index="week", columns="group", values="gait_speed_ms",
                 aggfunc=["mean", "count"]).round(3)
'''

_GAIT_CODE = '''
import statsmodels.formula.api as smf

m = smf.mixedlm("gait_speed_ms ~ month * C(group, Treatment('usual_care'))", data=gait,
                groups=gait["pid"], re_formula="~month").fit(reml=True)
term = "month:C(group, Treatment('usual_care'))[T.exergame]"
lo, hi = m.conf_int().loc[term]
print(f"{gait.pid.nunique()} participants, {len(gait)} visits "
      f"(random intercept and slope per participant)")
print(f"converged: {m.converged}; extra gait-speed gain with exergaming: "
      f"{2 * m.params[term]:.3f} m/s over 8 weeks "
      f"(95% CI {2 * lo:.3f} to {2 * hi:.3f}), p = {m.pvalues[term]:.4f}")
m.summary().tables[1]
'''

_POT_SETUP = '''
import numpy as np
import pandas as pd

counts = pd.DataFrame(
    {"cord_impressed": [34, 21, 9, 3], "incised": [12, 25, 18, 6],
     "plain_burnished": [8, 14, 29, 22], "wheel_thrown": [0, 2, 7, 19]},
    index=pd.Index(["context_104", "context_103", "context_102", "context_101"],
                   name="stratum (deep to shallow)"),
)
counts
'''

_POT_CODE = '''
from scipy import stats

chi2, p, dof, expected = stats.chi2_contingency(counts.to_numpy())
n = counts.to_numpy().sum()
v = np.sqrt(chi2 / (n * (min(counts.shape) - 1)))
print(f"chi-square({dof}) = {chi2:.1f}, p = {p:.2e}, N = {n} sherds, Cramer's V = {v:.2f}")
print(f"smallest expected count {expected.min():.1f}; "
      f"cells with expected < 5: {(expected < 5).sum()} of {expected.size}")
resid = (counts - expected) / np.sqrt(expected)
resid.round(2)
'''

_TB_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(8642)
districts = [f"D{k:02d}" for k in range(1, 19)]
rows = []
for d in districts:
    depriv = rng.integers(1, 6)
    urban = rng.binomial(1, 0.5)
    for yr in (2021, 2022, 2023):
        pop = int(rng.uniform(40_000, 260_000))
        rate = 9e-5 * np.exp(0.22 * (depriv - 3) + 0.3 * urban + 0.04 * (yr - 2021))
        rows.append({"district": d, "year": yr, "imd_quintile": depriv, "urban": urban,
                     "population": pop, "tb_notifications": rng.poisson(rate * pop)})
tb = pd.DataFrame(rows)
tb.head()
'''

_TB_CODE = '''
import statsmodels.api as sm
import statsmodels.formula.api as smf

fit = smf.glm("tb_notifications ~ imd_quintile + urban + C(year)", data=tb,
              family=sm.families.Poisson(), offset=np.log(tb.population)).fit(
    cov_type="cluster", cov_kwds={"groups": pd.factorize(tb.district)[0]})
disp = fit.pearson_chi2 / fit.df_resid
irr = pd.DataFrame({"IRR": np.exp(fit.params), "lo": np.exp(fit.conf_int()[0]),
                    "hi": np.exp(fit.conf_int()[1]), "p": fit.pvalues}).round(3)
print(f"{len(tb)} district-years from {tb.district.nunique()} districts; "
      f"Pearson dispersion {disp:.2f}; SEs clustered by district")
irr
'''

CASES: list[Case] = [
    Case(
        id="h14-sound-light-response-curves",
        family=None,
        setup=_LRC_SETUP,
        code=_LRC_CODE,
        note="Non-rectangular hyperbola fit per leaf with bounded curve_fit; sun vs shade Amax "
             "compared at leaf level (n = 5 each), the right unit of replication.",
        split="holdout14",
    ),
    Case(
        id="h14-sound-hearing-aid-srt-wilcoxon",
        family=None,
        setup=_SRT_SETUP,
        code=_SRT_CODE,
        note="Paired within-listener comparison with the signed-rank test and a seeded "
             "bootstrap CI of the median difference; heavy-tailed differences handled.",
        split="holdout14",
    ),
    Case(
        id="h14-sound-gait-speed-mixedlm",
        family=None,
        setup=_GAIT_SETUP,
        code=_GAIT_CODE,
        note="Repeated visits modelled with a random intercept and slope per participant; "
             "the group-by-time interaction is the treatment effect.",
        split="holdout14",
    ),
    Case(
        id="h14-sound-pottery-stratum-chi2",
        family=None,
        setup=_POT_SETUP,
        code=_POT_CODE,
        note="Chi-square test of ware type by stratum with expected counts checked, Cramer's V "
             "and standardised residuals.",
        split="holdout14",
    ),
    Case(
        id="h14-sound-tb-poisson-offset",
        family=None,
        setup=_TB_SETUP,
        code=_TB_CODE,
        note="Poisson GLM for notification counts with a log-population offset, dispersion "
             "reported and district-clustered SEs for repeated district-years.",
        split="holdout14",
    ),
]
