from bench.critic_corpus import Case

CASES: list[Case] = [
    Case(
        id="h31-sound-weighted-topline-kish-moe",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(11)
n = 1650
omni = pd.DataFrame({
    "respid": np.arange(1, n + 1),
    "approve_pm": rng.choice([1, 0], n, p=[0.36, 0.64]),
    "wt_rake": rng.lognormal(0, 0.45, n),
})
omni["wt_rake"] = (omni["wt_rake"] / omni["wt_rake"].mean()).round(4)
''',
        code='''from statsmodels.stats.weightstats import DescrStatsW

w = omni["wt_rake"]
d = DescrStatsW(omni["approve_pm"], weights=w, ddof=0)
n = len(omni)
n_eff = w.sum() ** 2 / (w ** 2).sum()
deff = n / n_eff
se = np.sqrt(d.mean * (1 - d.mean) / n_eff)
print(f"PM approval (weighted): {100 * d.mean:.1f}%")
print(f"n = {n}, Kish effective n = {n_eff:.0f}, design effect = {deff:.2f}")
print(f"margin of error (95%, incl. design effect): +/- {100 * 1.96 * se:.1f} pts")
''',
        note="Weighted proportion with a Kish effective sample size, so the margin of error "
             "accounts for the weighting design effect.",
        split="holdout31",
    ),
    Case(
        id="h31-sound-weighted-crosstab-column-pct",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(12)
n = 2100
ct = pd.DataFrame({
    "region": rng.choice(["Scotland", "Wales", "N England", "Midlands", "London", "S England"],
                         n, p=[0.09, 0.05, 0.24, 0.17, 0.14, 0.31]),
    "econ_outlook": rng.choice(["Get better", "Stay the same", "Get worse", "Don't know"], n,
                               p=[0.22, 0.30, 0.40, 0.08]),
    "weight": rng.lognormal(0, 0.35, n).round(3),
})
''',
        code='''order = ["Get better", "Stay the same", "Get worse", "Don't know"]
tab = pd.crosstab(ct["econ_outlook"], ct["region"], values=ct["weight"], aggfunc="sum",
                  normalize="columns").reindex(order) * 100
tab["Total"] = (ct.groupby("econ_outlook")["weight"].sum() / ct["weight"].sum() * 100)
bases = ct["region"].value_counts().reindex(tab.columns[:-1])
bases["Total"] = len(ct)
tab.loc["Unweighted base"] = bases
print("Q: Over the next 12 months, will the economy... (column %, weighted)")
tab.round(1)
''',
        note="Descriptive weighted column-percentage crosstab with unweighted bases shown; no "
             "inferential claims are made.",
        split="holdout31",
    ),
    Case(
        id="h31-sound-raking-to-census-margins",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(13)
n = 1200
samp = pd.DataFrame({
    "sex": rng.choice(["M", "F"], n, p=[0.42, 0.58]),
    "age": rng.choice(["18-34", "35-54", "55+"], n, p=[0.18, 0.34, 0.48]),
    "educ": rng.choice(["Degree", "No degree"], n, p=[0.45, 0.55]),
})
census = {"sex": {"M": 0.49, "F": 0.51},
          "age": {"18-34": 0.28, "35-54": 0.33, "55+": 0.39},
          "educ": {"Degree": 0.33, "No degree": 0.67}}
''',
        code='''w = np.ones(len(samp))
for it in range(50):
    w_old = w.copy()
    for var, target in census.items():
        cur = pd.Series(w).groupby(samp[var].to_numpy()).sum() / w.sum()
        w = w * samp[var].map(lambda k: target[k] / cur[k]).to_numpy()
    if np.abs(w - w_old).max() < 1e-8:
        break
w = w / w.mean()
samp["rake_wt"] = w
print(f"raking converged after {it + 1} iterations")
print(f"weights: min {w.min():.2f}, max {w.max():.2f}, "
      f"Kish deff {len(w) * (w ** 2).sum() / w.sum() ** 2:.2f}")
rows = [(var, cat, samp.loc[samp[var] == cat, "rake_wt"].sum() / w.sum(), tgt)
        for var, t in census.items() for cat, tgt in t.items()]
pd.DataFrame(rows, columns=["variable", "category", "weighted", "target"]).round(3)
''',
        note="Iterative proportional fitting to census margins with a convergence check, weight "
             "range, design effect and a margin check against targets.",
        split="holdout31",
    ),
    Case(
        id="h31-sound-cronbach-alpha-trust-battery",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(14)
n = 900
latent = rng.normal(0, 1, n)
trust = pd.DataFrame({"serial": np.arange(1, n + 1)})
items = {"tr_parliament": 1, "tr_police": 1, "tr_courts": 1, "tr_media": 1,
         "tr_politicians_lie": -1}   # last item is worded negatively
for item, sign in items.items():
    raw = np.clip(np.round(3 + sign * 0.9 * latent + rng.normal(0, 0.8, n)), 1, 5)
    trust[item] = raw.astype(int)
    trust.loc[rng.random(n) < 0.04, item] = 8   # 8 = don't know
''',
        code='''scale = trust[list(items)].replace({8: np.nan})
scale["tr_politicians_lie"] = 6 - scale["tr_politicians_lie"]   # reverse-code
complete = scale.dropna()
print(f"complete cases for the battery: {len(complete)} of {len(scale)} "
      f"({len(scale) - len(complete)} with at least one don't know)")

k = complete.shape[1]
alpha = k / (k - 1) * (1 - complete.var(ddof=1).sum() / complete.sum(axis=1).var(ddof=1))
print(f"Cronbach's alpha ({k} items) = {alpha:.3f}")
item_total = {c: complete[c].corr(complete.drop(columns=c).sum(axis=1)) for c in complete}
pd.Series(item_total, name="corrected item-total r").round(3)
''',
        note="DK code recoded to missing, negatively worded item reversed, complete-case count "
             "reported before computing alpha and corrected item-total correlations.",
        split="holdout31",
    ),
    Case(
        id="h31-sound-mcnemar-panel-switching",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(15)
n = 1500
w1 = pd.DataFrame({"pid": np.arange(1, n + 1),
                   "support_w1": rng.binomial(1, 0.48, n)})
stay = rng.random(n) < 0.78
w2_ids = w1.loc[stay, "pid"].to_numpy()
flip_to_no = rng.random(stay.sum()) < 0.14
flip_to_yes = rng.random(stay.sum()) < 0.08
s1 = w1.loc[stay, "support_w1"].to_numpy()
s2 = np.where(s1 == 1, np.where(flip_to_no, 0, 1), np.where(flip_to_yes, 1, 0))
w2 = pd.DataFrame({"pid": w2_ids, "support_w2": s2})
''',
        code='''from statsmodels.stats.contingency_tables import mcnemar

both = w1.merge(w2, on="pid", how="inner")
print(f"wave 1 n = {len(w1)}, wave 2 n = {len(w2)}, in both waves = {len(both)} "
      f"(retention {len(both) / len(w1):.1%})")
print(f"wave-1 support among wave-2 stayers {both['support_w1'].mean():.1%} vs all wave-1 "
      f"{w1['support_w1'].mean():.1%}")

tab = pd.crosstab(both["support_w1"], both["support_w2"])
res = mcnemar(tab.to_numpy(), exact=False, correction=True)
print(f"\\nsupport: wave 1 {both['support_w1'].mean():.1%} -> wave 2 "
      f"{both['support_w2'].mean():.1%} (same {len(both)} panelists)")
print(f"McNemar chi2 = {res.statistic:.2f}, p = {res.pvalue:.4f}")
tab
''',
        note="Paired McNemar test on panelists present in both waves, with attrition counts and "
             "a check that stayers resemble the wave-1 sample.",
        split="holdout31",
    ),
]
