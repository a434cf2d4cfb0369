from bench.critic_corpus import Case

_SPLIT = "holdout16"

_MW_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2014)
abbr = ("AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV "
        "NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY").split()
raised = {"AK", "AR", "CA", "CO", "MA", "MD", "ME", "MI", "NE", "NJ", "NY", "SD", "WA", "RI"}
rows = []
for st in abbr:
    base = rng.normal(0.27, 0.04)
    shock = rng.normal(0, 0.012)
    for yr in range(2010, 2019):
        post = int(yr >= 2015)
        treat = int(st in raised)
        y = base - 0.004 * (yr - 2010) - 0.006 * treat * post + shock * post
        rows.append((st, yr, treat, round(y + rng.normal(0, 0.008), 4)))
teen = pd.DataFrame(rows, columns=["state", "year", "raised_mw", "teen_epop"])
'''

_PENSION_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(401)
parts = []
for f in range(80):
    auto = int(rng.random() < 0.45)
    n = int(rng.integers(15, 160))
    firm_eff = rng.normal(0, 1.6)
    rate = np.clip(4.0 + 1.2 * auto + firm_eff + rng.normal(0, 2.5, n), 0, 15)
    parts.append(pd.DataFrame({
        "firm_id": f"F{f:03d}", "auto_enroll": auto,
        "tenure_yrs": np.round(rng.gamma(2, 3, n), 1),
        "contrib_pct": np.round(rate, 1),
    }))
plan = pd.concat(parts, ignore_index=True)
'''

CASES = [
    Case(
        id="h16-unseeded-randomness-minwage-placebo-perm",
        family="unseeded_randomness",
        split=_SPLIT,
        twin="h16-unseeded-randomness-minwage-placebo-perm-ok",
        setup=_MW_SETUP,
        note="randomisation-inference p-value uses np.random.permutation on the unseeded global "
             "generator, so the reported p changes each run",
        code='''
chg = (teen.assign(post=teen["year"] >= 2015)
       .groupby(["state", "post"])["teen_epop"].mean().unstack())
chg = (chg[True] - chg[False]).rename("d_epop").to_frame()
chg["raised_mw"] = teen.groupby("state")["raised_mw"].first()

def did(labels):
    return chg["d_epop"][labels == 1].mean() - chg["d_epop"][labels == 0].mean()

obs = did(chg["raised_mw"].to_numpy())
placebo = np.array([did(np.random.permutation(chg["raised_mw"].to_numpy()))
                    for _ in range(2000)])
p_ri = (np.abs(placebo) >= abs(obs)).mean()
print(f"DiD in teen employment-population ratio: {obs * 100:.2f} pp")
print(f"randomisation-inference p = {p_ri:.4f} ({len(placebo)} placebo assignments)")
''',
    ),
    Case(
        id="h16-unseeded-randomness-minwage-placebo-perm-ok",
        family=None,
        split=_SPLIT,
        twin="h16-unseeded-randomness-minwage-placebo-perm",
        setup=_MW_SETUP,
        note="same randomisation-inference test with placebo assignments drawn from a seeded "
             "Generator, so the p-value is reproducible",
        code='''
chg = (teen.assign(post=teen["year"] >= 2015)
       .groupby(["state", "post"])["teen_epop"].mean().unstack())
chg = (chg[True] - chg[False]).rename("d_epop").to_frame()
chg["raised_mw"] = teen.groupby("state")["raised_mw"].first()

def did(labels):
    return chg["d_epop"][labels == 1].mean() - chg["d_epop"][labels == 0].mean()

rng = np.random.default_rng(20150101)
obs = did(chg["raised_mw"].to_numpy())
placebo = np.array([did(rng.permutation(chg["raised_mw"].to_numpy())) for _ in range(2000)])
p_ri = (np.abs(placebo) >= abs(obs)).mean()
print(f"DiD in teen employment-population ratio: {obs * 100:.2f} pp")
print(f"randomisation-inference p = {p_ri:.4f} ({len(placebo)} placebo assignments)")
''',
    ),
    Case(
        id="h16-unseeded-randomness-autoenroll-cluster-boot",
        family="unseeded_randomness",
        split=_SPLIT,
        twin="h16-unseeded-randomness-autoenroll-cluster-boot-ok",
        setup=_PENSION_SETUP,
        note="firm-level cluster bootstrap uses DataFrame.sample without random_state, so the "
             "reported confidence interval and SE differ on every run",
        code='''
firm = plan.groupby("firm_id").agg(auto=("auto_enroll", "first"), n=("contrib_pct", "size"),
                                   total=("contrib_pct", "sum"))

def gap(f):
    g = f.groupby("auto")[["total", "n"]].sum()
    return g.loc[1, "total"] / g.loc[1, "n"] - g.loc[0, "total"] / g.loc[0, "n"]

est = gap(firm)
boot = np.array([gap(firm.sample(frac=1, replace=True)) for _ in range(400)])
lo, hi = np.percentile(boot, [2.5, 97.5])
print(f"auto-enrolment gap in contribution rate: {est:.2f} pp "
      f"(firm bootstrap SE {boot.std(ddof=1):.3f}, 95% CI {lo:.2f} to {hi:.2f})")
''',
    ),
    Case(
        id="h16-unseeded-randomness-autoenroll-cluster-boot-ok",
        family=None,
        split=_SPLIT,
        twin="h16-unseeded-randomness-autoenroll-cluster-boot",
        setup=_PENSION_SETUP,
        note="same firm-level cluster bootstrap with a seeded random_state per replicate, so "
             "the interval is reproducible",
        code='''
firm = plan.groupby("firm_id").agg(auto=("auto_enroll", "first"), n=("contrib_pct", "size"),
                                   total=("contrib_pct", "sum"))

def gap(f):
    g = f.groupby("auto")[["total", "n"]].sum()
    return g.loc[1, "total"] / g.loc[1, "n"] - g.loc[0, "total"] / g.loc[0, "n"]

est = gap(firm)
boot = np.array([gap(firm.sample(frac=1, replace=True, random_state=9000 + b))
                 for b in range(400)])
lo, hi = np.percentile(boot, [2.5, 97.5])
print(f"auto-enrolment gap in contribution rate: {est:.2f} pp "
      f"(firm bootstrap SE {boot.std(ddof=1):.3f}, 95% CI {lo:.2f} to {hi:.2f})")
''',
    ),
]
