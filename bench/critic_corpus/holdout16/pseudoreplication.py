from bench.critic_corpus import Case

_SPLIT = "holdout16"

_SCHOOL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(10)
parts = []
for s in range(42):
    voucher = int(s < 20)
    n = int(rng.integers(45, 110))
    school_eff = rng.normal(0, 0.35)
    frl = rng.binomial(1, 0.65, n)
    prior = rng.normal(-0.1 * frl, 1, n)
    score = 0.05 * voucher + school_eff + 0.55 * prior - 0.12 * frl + rng.normal(0, 0.7, n)
    parts.append(pd.DataFrame({
        "school_id": f"S{s:03d}", "voucher_school": voucher, "frl": frl,
        "grade": rng.choice([4, 5, 6, 7, 8], n), "prior_score_z": prior.round(3),
        "math_score_z": score.round(3),
    }))
pupils = pd.concat(parts, ignore_index=True)
'''

_BROADBAND_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(10)
months = pd.period_range("2017-01", "2019-12", freq="M")
rows = []
for c in range(36):
    fips = f"51{2 * c + 1:03d}"
    treated = int(c < 16)
    level = rng.normal(6.0, 1.2)
    post_shock = rng.normal(0, 0.6)
    for i, m in enumerate(months):
        post = int(i >= 18)
        y = level + 0.1 * treated * post + post * post_shock + rng.normal(0, 0.5)
        rows.append((fips, str(m), treated, post, round(max(y, 0), 2)))
cty = pd.DataFrame(rows, columns=["county_fips", "month", "fiber_county", "post",
                                  "new_biz_per_10k"])
'''

CASES = [
    Case(
        id="h16-pseudoreplication-voucher-schools-ols",
        family="pseudoreplication",
        split=_SPLIT,
        twin="h16-pseudoreplication-voucher-schools-ols-ok",
        setup=_SCHOOL_SETUP,
        note="voucher status varies only across 42 schools but the OLS uses iid standard errors "
             "over ~3,200 pupils, ignoring strong within-school correlation",
        code='''
import statsmodels.formula.api as smf

m = smf.ols("math_score_z ~ voucher_school + prior_score_z + frl + C(grade)", data=pupils).fit()
print(m.summary2().tables[1].loc[["voucher_school", "prior_score_z", "frl"]].round(4))
b, ci = m.params["voucher_school"], m.conf_int().loc["voucher_school"]
print(f"N pupils = {int(m.nobs)}; voucher-school effect {b:.3f} SD "
      f"[{ci[0]:.3f}, {ci[1]:.3f}], p = {m.pvalues['voucher_school']:.4f}")
''',
    ),
    Case(
        id="h16-pseudoreplication-voucher-schools-ols-ok",
        family=None,
        split=_SPLIT,
        twin="h16-pseudoreplication-voucher-schools-ols",
        setup=_SCHOOL_SETUP,
        note="same pupil-level regression with standard errors clustered by school, the level "
             "at which voucher status varies",
        code='''
import statsmodels.formula.api as smf

m = smf.ols("math_score_z ~ voucher_school + prior_score_z + frl + C(grade)", data=pupils).fit(
    cov_type="cluster", cov_kwds={"groups": pupils["school_id"]})
print(m.summary2().tables[1].loc[["voucher_school", "prior_score_z", "frl"]].round(4))
b, ci = m.params["voucher_school"], m.conf_int().loc["voucher_school"]
print(f"N pupils = {int(m.nobs)} in {pupils['school_id'].nunique()} schools; voucher-school "
      f"effect {b:.3f} SD [{ci[0]:.3f}, {ci[1]:.3f}], p = {m.pvalues['voucher_school']:.4f}")
''',
    ),
    Case(
        id="h16-pseudoreplication-fiber-county-months",
        family="pseudoreplication",
        split=_SPLIT,
        twin="h16-pseudoreplication-fiber-county-months-ok",
        setup=_BROADBAND_SETUP,
        note="t-test treats 648 post-rollout county-months as independent although they come "
             "from 36 counties with county-level post-period shocks",
        code='''
from scipy import stats

pre_mean = cty[cty["post"] == 0].groupby("county_fips")["new_biz_per_10k"].mean()
post = cty[cty["post"] == 1].copy()
post["change"] = post["new_biz_per_10k"] - post["county_fips"].map(pre_mean)

fiber = post.loc[post["fiber_county"] == 1, "change"]
other = post.loc[post["fiber_county"] == 0, "change"]
t, p = stats.ttest_ind(fiber, other)
print(f"n = {len(fiber)} vs {len(other)} observations")
print(f"change in new businesses per 10k: fiber {fiber.mean():.3f}, other {other.mean():.3f}; "
      f"diff {fiber.mean() - other.mean():.3f}, t = {t:.2f}, p = {p:.4f}")
''',
    ),
    Case(
        id="h16-pseudoreplication-fiber-county-months-ok",
        family=None,
        split=_SPLIT,
        twin="h16-pseudoreplication-fiber-county-months",
        setup=_BROADBAND_SETUP,
        note="pre/post change is collapsed to one value per county before comparing fiber and "
             "other counties, so n is the 36 counties",
        code='''
from scipy import stats

by = cty.groupby(["county_fips", "post"])["new_biz_per_10k"].mean().unstack()
chg = (by[1] - by[0]).rename("change").to_frame()
chg["fiber_county"] = cty.groupby("county_fips")["fiber_county"].first()

fiber = chg.loc[chg["fiber_county"] == 1, "change"]
other = chg.loc[chg["fiber_county"] == 0, "change"]
t, p = stats.ttest_ind(fiber, other)
print(f"n = {len(fiber)} vs {len(other)} counties")
print(f"change in new businesses per 10k: fiber {fiber.mean():.3f}, other {other.mean():.3f}; "
      f"diff {fiber.mean() - other.mean():.3f}, t = {t:.2f}, p = {p:.4f}")
''',
    ),
]
