from bench.critic_corpus import Case

_MINDSET_SETUP = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(138)
n = 148
arm = np.repeat(["module", "control"], n // 2)
treated = (arm == "module").astype(float)
post = pd.DataFrame({
    "pupil": [f"Y8-{i:03d}" for i in range(n)],
    "arm": arm,
    "mindset": 3.4 + 0.32 * treated + rng.normal(0, 0.7, n),        # 1-6 scale mean
    "test_anxiety": 2.6 + rng.normal(0, 0.8, n),
    "self_efficacy": 3.1 + rng.normal(0, 0.75, n),
    "belonging": 3.6 + rng.normal(0, 0.7, n),
    "grit": 3.2 + rng.normal(0, 0.6, n),
    "wellbeing_swemwbs": 22.5 + rng.normal(0, 4.1, n),
    "maths_pct": 58 + rng.normal(0, 15, n),
    "reading_pct": 61 + rng.normal(0, 14, n),
    "homework_done_pct": 74 + rng.normal(0, 16, n),
    "attendance_pct": np.clip(93 + rng.normal(0, 4.5, n), 60, 100),
})
post.groupby("arm").size()
"""

_MANYLABS_SETUP = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(218)
sites = ["Amsterdam", "Ankara", "Brno", "Chicago", "Hong Kong", "Ljubljana", "Lodz",
         "Melbourne", "Santiago", "Tilburg", "Toronto", "Warsaw"]
rows = []
for site in sites:
    site_mean = rng.normal(4.1, 0.25)
    for cond in ["money", "control"]:
        for i in range(int(rng.integers(16, 26))):
            score = np.clip(site_mean + 0.03 * (cond == "money") + rng.normal(0, 0.95), 1, 7)
            rows.append({"site": site, "condition": cond, "sj_score": round(score, 3)})
rep = pd.DataFrame(rows)
rep.insert(0, "participant", [f"ML{i:04d}" for i in range(len(rep))])
rep.groupby(["site", "condition"]).size().unstack().head()
"""

_MC1_FLAWED = """\
from scipy import stats

outcomes = [c for c in post.columns if c not in ("pupil", "arm")]
mod, ctl = post[post.arm == "module"], post[post.arm == "control"]

rows = []
for y in outcomes:
    t, p = stats.ttest_ind(mod[y], ctl[y], equal_var=False)
    d = (mod[y].mean() - ctl[y].mean()) / np.sqrt((mod[y].var() + ctl[y].var()) / 2)
    rows.append({"outcome": y, "M_module": mod[y].mean(), "M_control": ctl[y].mean(),
                 "t": t, "p": p, "d": d, "sig": "*" if p < .05 else ""})
res = pd.DataFrame(rows).set_index("outcome")

hits = res[res.p < .05]
print(f"Significant effects of the module on {len(hits)} of {len(res)} outcomes:")
for y, r in hits.iterrows():
    print(f"  {y}: t = {r.t:.2f}, p = {r.p:.3f}, d = {r.d:.2f}")
res.round(3)
"""

_MC1_SOUND = """\
from scipy import stats
from statsmodels.stats.multitest import multipletests

outcomes = [c for c in post.columns if c not in ("pupil", "arm")]
mod, ctl = post[post.arm == "module"], post[post.arm == "control"]

rows = []
for y in outcomes:
    t, p = stats.ttest_ind(mod[y], ctl[y], equal_var=False)
    d = (mod[y].mean() - ctl[y].mean()) / np.sqrt((mod[y].var() + ctl[y].var()) / 2)
    rows.append({"outcome": y, "M_module": mod[y].mean(), "M_control": ctl[y].mean(),
                 "t": t, "p": p, "d": d})
res = pd.DataFrame(rows).set_index("outcome")
# ten outcomes -> Holm correction across the family of tests
res["p_holm"] = multipletests(res["p"], method="holm")[1]
res["sig"] = np.where(res["p_holm"] < .05, "*", "")

hits = res[res.p_holm < .05]
print(f"Significant effects after Holm correction ({len(res)} tests): {len(hits)}")
for y, r in hits.iterrows():
    print(f"  {y}: t = {r.t:.2f}, p = {r.p:.3f}, p_holm = {r.p_holm:.3f}, d = {r.d:.2f}")
res.round(3)
"""

_MC2_FLAWED = """\
from scipy import stats


def site_test(d):
    a = d.loc[d.condition == "money", "sj_score"]
    b = d.loc[d.condition == "control", "sj_score"]
    t, p = stats.ttest_ind(a, b)
    df = len(a) + len(b) - 2
    sd_pooled = np.sqrt(((len(a) - 1) * a.var() + (len(b) - 1) * b.var()) / df)
    return pd.Series({"n": len(d), "d": (a.mean() - b.mean()) / sd_pooled,
                      "t": t, "df": df, "p": p})


by_site = rep.groupby("site").apply(site_test)
replicated = by_site[by_site.p < .05]
print(f"Money-priming effect replicated at {len(replicated)} of {len(by_site)} sites:")
for site, r in replicated.iterrows():
    print(f"  {site}: t({r.df:.0f}) = {r.t:.2f}, p = {r.p:.3f}, d = {r.d:.2f}")
by_site.round(3)
"""

_MC2_SOUND = """\
import statsmodels.formula.api as smf
from scipy import stats
from statsmodels.stats.multitest import multipletests


def site_test(d):
    a = d.loc[d.condition == "money", "sj_score"]
    b = d.loc[d.condition == "control", "sj_score"]
    t, p = stats.ttest_ind(a, b)
    df = len(a) + len(b) - 2
    sd_pooled = np.sqrt(((len(a) - 1) * a.var() + (len(b) - 1) * b.var()) / df)
    return pd.Series({"n": len(d), "d": (a.mean() - b.mean()) / sd_pooled,
                      "t": t, "df": df, "p": p})


by_site = rep.groupby("site").apply(site_test)
by_site["p_holm"] = multipletests(by_site["p"], method="holm")[1]

# confirmatory test: one pooled model with site as a blocking factor
m = smf.ols("sj_score ~ C(condition, Treatment('control')) + C(site)", data=rep).fit()
term = "C(condition, Treatment('control'))[T.money]"
print(f"Pooled money-priming effect: b = {m.params[term]:.3f}, "
      f"t({int(m.df_resid)}) = {m.tvalues[term]:.2f}, p = {m.pvalues[term]:.3f}")
print(f"Sites significant after Holm correction: {(by_site.p_holm < .05).sum()} "
      f"of {len(by_site)}")
by_site.round(3)
"""

CASES: list[Case] = [
    Case(
        id="h21-multiple-comparisons-mindset-ten-outcomes",
        family="multiple_comparisons",
        setup=_MINDSET_SETUP,
        code=_MC1_FLAWED,
        twin="h21-multiple-comparisons-mindset-ten-outcomes-holm",
        note="Ten outcomes are each tested at p < .05 and every hit is reported as an effect of "
             "the module with no correction for the ten tests.",
        split="holdout21",
    ),
    Case(
        id="h21-multiple-comparisons-mindset-ten-outcomes-holm",
        family=None,
        setup=_MINDSET_SETUP,
        code=_MC1_SOUND,
        twin="h21-multiple-comparisons-mindset-ten-outcomes",
        note="Same ten Welch tests, but claims rest on Holm-adjusted p-values across the family "
             "of outcomes.",
        split="holdout21",
    ),
    Case(
        id="h21-multiple-comparisons-manylabs-per-site",
        family="multiple_comparisons",
        setup=_MANYLABS_SETUP,
        code=_MC2_FLAWED,
        twin="h21-multiple-comparisons-manylabs-pooled-holm",
        note="The priming effect is tested separately at twelve sites and the sites with "
             "p < .05 are reported as successful replications, uncorrected.",
        split="holdout21",
    ),
    Case(
        id="h21-multiple-comparisons-manylabs-pooled-holm",
        family=None,
        setup=_MANYLABS_SETUP,
        code=_MC2_SOUND,
        twin="h21-multiple-comparisons-manylabs-per-site",
        note="The confirmatory test is one pooled model blocked by site; per-site tests are "
             "shown descriptively with Holm-adjusted p-values.",
        split="holdout21",
    ),
]
