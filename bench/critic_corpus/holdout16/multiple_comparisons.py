from bench.critic_corpus import Case

_SPLIT = "holdout16"

_MW_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3)
states = ["AZ", "CA", "CO", "FL", "GA", "ID", "IN", "KS", "MA", "MD", "MO", "NC", "NJ", "NV",
          "NY", "OH", "PA", "TN", "TX", "WA", "WI", "UT"]
raised = {"AZ", "CA", "CO", "MA", "MD", "MO", "NJ", "NY", "WA", "NV", "OH"}
groups = [f"{ind} / {age}" for ind in ["food service", "retail", "accommodation", "child care",
                                       "home health", "grocery", "gas stations"]
          for age in ["16-19", "20-24"]]
rows = []
for st in states:
    st_eff = rng.normal(0, 0.3)
    for g in groups:
        g_eff = rng.normal(8, 0.8)
        for yr in range(2010, 2020):
            post = int(st in raised and yr >= 2015)
            y = g_eff + st_eff + 0.01 * (yr - 2010) + rng.normal(0, 0.05)
            rows.append((st, yr, g, post, round(y, 4)))
qcew = pd.DataFrame(rows, columns=["state", "year", "subgroup", "mw_post", "log_emp"])
'''

_GOTV_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(20)
states = ["AL", "AZ", "GA", "IA", "KS", "KY", "LA", "ME", "MI", "MN", "MT", "NC", "NH", "NM",
          "NV", "OR", "PA", "SC", "VA", "WI"]
parts = []
for st in states:
    n = int(rng.integers(1500, 2600))
    base = rng.uniform(0.38, 0.62)
    treat = rng.binomial(1, 0.5, n)
    voted = rng.binomial(1, np.clip(base + 0.004 * treat, 0, 1))
    parts.append(pd.DataFrame({"state": st, "mailer": treat, "voted_2018": voted}))
voters = pd.concat(parts, ignore_index=True)
voters.insert(0, "voter_id", [f"V{i:07d}" for i in range(len(voters))])
'''

CASES = [
    Case(
        id="h16-multiple-comparisons-minwage-subgroups",
        family="multiple_comparisons",
        split=_SPLIT,
        twin="h16-multiple-comparisons-minwage-subgroups-ok",
        setup=_MW_SETUP,
        note="14 subgroup DiD regressions, each judged at p<0.05 with no multiplicity "
             "adjustment; the 'significant' subgroups are what one expects by chance",
        code='''
import statsmodels.formula.api as smf

out = []
for g, d in qcew.groupby("subgroup"):
    res = smf.ols("log_emp ~ mw_post + C(state) + C(year)", data=d).fit(
        cov_type="cluster", cov_kwds={"groups": d["state"]})
    out.append({"subgroup": g, "beta": res.params["mw_post"], "se": res.bse["mw_post"],
                "p": res.pvalues["mw_post"]})

est = pd.DataFrame(out).set_index("subgroup").sort_values("p")
est["sig_05"] = est["p"] < 0.05
print(f"subgroups with a significant employment effect: {est['sig_05'].sum()} of {len(est)}")
est.round(4)
''',
    ),
    Case(
        id="h16-multiple-comparisons-minwage-subgroups-ok",
        family=None,
        split=_SPLIT,
        twin="h16-multiple-comparisons-minwage-subgroups",
        setup=_MW_SETUP,
        note="same 14 subgroup DiD regressions, significance judged on Holm-adjusted p-values",
        code='''
import statsmodels.formula.api as smf
from statsmodels.stats.multitest import multipletests

out = []
for g, d in qcew.groupby("subgroup"):
    res = smf.ols("log_emp ~ mw_post + C(state) + C(year)", data=d).fit(
        cov_type="cluster", cov_kwds={"groups": d["state"]})
    out.append({"subgroup": g, "beta": res.params["mw_post"], "se": res.bse["mw_post"],
                "p": res.pvalues["mw_post"]})

est = pd.DataFrame(out).set_index("subgroup").sort_values("p")
est["sig_05"], est["p_holm"], _, _ = multipletests(est["p"], alpha=0.05, method="holm")
print(f"subgroups with a significant employment effect (Holm, FWER 5%): "
      f"{est['sig_05'].sum()} of {len(est)}")
est.round(4)
''',
    ),
    Case(
        id="h16-multiple-comparisons-gotv-states",
        family="multiple_comparisons",
        split=_SPLIT,
        twin="h16-multiple-comparisons-gotv-states-ok",
        setup=_GOTV_SETUP,
        note="mailer effect tested separately in 20 states at alpha 0.05 and the states "
             "that pass are reported as where the mailer worked, without any correction",
        code='''
from statsmodels.stats.proportion import proportions_ztest

tab = voters.groupby(["state", "mailer"])["voted_2018"].agg(["sum", "count"]).unstack()
res = {
    st: proportions_ztest(tab.loc[st, "sum"][[1, 0]].to_numpy(),
                          tab.loc[st, "count"][[1, 0]].to_numpy(), alternative="two-sided")[1]
    for st in tab.index
}
effect = (tab["sum"][1] / tab["count"][1] - tab["sum"][0] / tab["count"][0]) * 100
summary = pd.DataFrame({"effect_pp": effect.round(2), "p_value": pd.Series(res).round(4)})
worked = summary.query("p_value < 0.05")
print(f"mailer effect significant at 5% in {len(worked)} states: {', '.join(worked.index)}")
summary.sort_values("p_value").head(8)
''',
    ),
    Case(
        id="h16-multiple-comparisons-gotv-states-ok",
        family=None,
        split=_SPLIT,
        twin="h16-multiple-comparisons-gotv-states",
        setup=_GOTV_SETUP,
        note="the 20 state-level tests are adjusted with Benjamini-Hochberg before any state "
             "is called significant",
        code='''
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportions_ztest

tab = voters.groupby(["state", "mailer"])["voted_2018"].agg(["sum", "count"]).unstack()
res = {
    st: proportions_ztest(tab.loc[st, "sum"][[1, 0]].to_numpy(),
                          tab.loc[st, "count"][[1, 0]].to_numpy(), alternative="two-sided")[1]
    for st in tab.index
}
effect = (tab["sum"][1] / tab["count"][1] - tab["sum"][0] / tab["count"][0]) * 100
summary = pd.DataFrame({"effect_pp": effect.round(2), "p_value": pd.Series(res).round(4)})
summary["q_bh"] = multipletests(summary["p_value"], method="fdr_bh")[1].round(4)
worked = summary.query("q_bh < 0.05")
print(f"mailer effect significant (BH q<0.05) in {len(worked)} states: "
      f"{', '.join(worked.index) or 'none'}")
summary.sort_values("p_value").head(8)
''',
    ),
]
