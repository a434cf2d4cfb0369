from bench.critic_corpus import Case

_SPLIT = "holdout16"

CASES = [
    Case(
        id="h16-sound-housing-rent-burden-mixedlm",
        family=None,
        split=_SPLIT,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3030)
metros = [f"CBSA{c}" for c in rng.choice(np.arange(10000, 49999), 28, replace=False)]
parts = []
for m in metros:
    n = int(rng.integers(30, 90))
    metro_eff = rng.normal(0, 4)
    inc = rng.lognormal(10.3, 0.5, n)
    voucher = rng.binomial(1, 0.25, n)
    size = rng.integers(1, 7, n)
    burden = 38 + metro_eff - 9 * voucher - 6 * (np.log(inc) - 10.3) + 0.8 * size
    parts.append(pd.DataFrame({
        "metro": m, "hh_income": inc.round(0), "hcv_voucher": voucher, "hh_size": size,
        "rent_burden_pct": np.round(burden + rng.normal(0, 7, n), 1),
    }))
renters = pd.concat(parts, ignore_index=True)
''',
        note="renters nested in metros are modelled with a metro random intercept; the voucher "
             "association is reported with its CI and the grouping is stated",
        code='''
import statsmodels.formula.api as smf

renters["log_income"] = np.log(renters["hh_income"])
mm = smf.mixedlm("rent_burden_pct ~ hcv_voucher + log_income + hh_size",
                 data=renters, groups=renters["metro"]).fit(reml=True)
print(f"{len(renters)} renter households in {renters['metro'].nunique()} metros")
print(f"metro intercept variance {float(mm.cov_re.iloc[0, 0]):.2f}, "
      f"residual variance {mm.scale:.2f}")
coefs = pd.DataFrame({"coef": mm.fe_params, "se": mm.bse_fe})
coefs[["ci_lo", "ci_hi"]] = mm.conf_int().loc[coefs.index].to_numpy()
coefs.round(3)
''',
    ),
    Case(
        id="h16-sound-tariffs-event-study",
        family=None,
        split=_SPLIT,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2018)
months = pd.period_range("2017-11", "2019-02", freq="M")
rows = []
for k in range(36):
    hs6 = f"{rng.integers(100000, 999999)}"
    hit = int(k < 15)
    lvl = rng.normal(3.5, 1.0)
    for i, m in enumerate(months):
        rel = i - 8
        eff = -0.25 * hit * (rel >= 0) * min(1, (rel + 1) / 3)
        y = lvl + 0.003 * i + eff + rng.normal(0, 0.15)
        rows.append((hs6, str(m), hit, rel, round(y, 4)))
imports = pd.DataFrame(rows, columns=["hs6", "month", "tariffed", "rel_month", "log_imports"])
''',
        note="event study with product and month fixed effects, month -1 as reference, "
             "binned endpoints and SEs clustered by product (the level of treatment)",
        code='''
import statsmodels.formula.api as smf

imports["ev"] = imports["rel_month"].clip(-6, 6)
for k in range(-6, 7):
    if k != -1:
        name = f"ev_m{-k}" if k < 0 else f"ev_p{k}"
        imports[name] = ((imports["ev"] == k) & (imports["tariffed"] == 1)).astype(int)
ev_cols = [c for c in imports.columns if c.startswith("ev_")]

es = smf.ols("log_imports ~ " + " + ".join(ev_cols) + " + C(hs6) + C(month)",
             data=imports).fit(cov_type="cluster", cov_kwds={"groups": imports["hs6"]})
tab = pd.DataFrame({"coef": es.params[ev_cols], "se": es.bse[ev_cols],
                    "p": es.pvalues[ev_cols]})
pre = [c for c in ev_cols if c.startswith("ev_m")]
lead_test = es.f_test(" = 0, ".join(pre) + " = 0")
print(f"joint test of pre-period leads: p = {float(lead_test.pvalue):.3f}")
tab.round(3)
''',
    ),
    Case(
        id="h16-sound-migration-ppml-gravity",
        family=None,
        split=_SPLIT,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1648)
origins = ["MEX", "GTM", "HND", "SLV", "COL", "VEN", "PER", "ECU", "DOM", "HTI", "CUB", "NIC",
           "BOL", "BRA", "ARG", "CHL"]
dests = ["USA", "ESP", "CAN", "ITA", "DEU", "FRA", "GBR", "CHL", "ARG", "PRT"]
o_eff = dict(zip(origins, rng.normal(0, 0.8, len(origins))))
d_eff = dict(zip(dests, rng.normal(0, 0.8, len(dests))))
rows = []
for o in origins:
    for d in dests:
        if o == d:
            continue
        dist = rng.uniform(800, 11000)
        lang = int(d in {"ESP", "CHL", "ARG"} or (d == "PRT" and o == "BRA"))
        contig = int((o, d) in {("MEX", "USA"), ("BOL", "CHL"), ("PER", "CHL"), ("BOL", "ARG"),
                                 ("CHL", "ARG")})
        mu = np.exp(3.2 + o_eff[o] + d_eff[d] - 0.9 * np.log(dist / 1000) + 0.7 * lang
                    + 0.5 * contig)
        rows.append((o, d, round(dist), lang, contig, rng.negative_binomial(2, 2 / (2 + mu))))
flows = pd.DataFrame(rows, columns=["origin", "dest", "dist_km", "common_lang", "contig",
                                    "migrants_2015_2020"])
''',
        note="PPML gravity model of bilateral migrant counts (zeros kept) with origin and "
             "destination fixed effects and heteroskedasticity-robust SEs",
        code='''
import statsmodels.formula.api as smf

print(f"{len(flows)} corridors, {(flows['migrants_2015_2020'] == 0).sum()} with zero flow")
ppml = smf.poisson("migrants_2015_2020 ~ np.log(dist_km) + common_lang + contig"
                   " + C(origin) + C(dest)", data=flows).fit(disp=0, cov_type="HC1",
                                                              maxiter=200)
keep = ["np.log(dist_km)", "common_lang", "contig"]
out = ppml.summary2().tables[1].loc[keep]
out["semi_elast_pct"] = (np.exp(out["Coef."]) - 1) * 100
out.round(3)
''',
    ),
    Case(
        id="h16-sound-broadband-twfe-did",
        family=None,
        split=_SPLIT,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1)
rows = []
for c in range(44):
    fips = f"47{2 * c + 1:03d}"
    treat = int(c < 18)
    lvl = rng.normal(61, 4)
    for yr in range(2013, 2021):
        post = int(yr >= 2017)
        y = lvl + 0.3 * (yr - 2013) + 1.1 * treat * post + rng.normal(0, 1.2)
        rows.append((fips, yr, treat, post, round(y, 2),
                     int(rng.integers(8000, 90000))))
lfp = pd.DataFrame(rows, columns=["county_fips", "year", "grant_county", "post", "lfpr",
                                  "pop_16plus"])
''',
        note="two-way fixed-effects DiD with a single adoption year, SEs clustered by county, "
             "plus a placebo test on pre-period years only",
        code='''
import statsmodels.formula.api as smf

lfp["treat_post"] = lfp["grant_county"] * lfp["post"]
did = smf.ols("lfpr ~ treat_post + C(county_fips) + C(year)", data=lfp).fit(
    cov_type="cluster", cov_kwds={"groups": lfp["county_fips"]})

pre = lfp[lfp["year"] < 2017].copy()
pre["fake_post"] = pre["grant_county"] * (pre["year"] >= 2015)
plac = smf.ols("lfpr ~ fake_post + C(county_fips) + C(year)", data=pre).fit(
    cov_type="cluster", cov_kwds={"groups": pre["county_fips"]})

pd.DataFrame({
    "estimate": [did.params["treat_post"], plac.params["fake_post"]],
    "se": [did.bse["treat_post"], plac.bse["fake_post"]],
    "p": [did.pvalues["treat_post"], plac.pvalues["fake_post"]],
    "n_obs": [int(did.nobs), int(plac.nobs)],
    "clusters": [lfp["county_fips"].nunique(), pre["county_fips"].nunique()],
}, index=["broadband grant DiD", "placebo 2015 (pre-period)"]).round(3)
''',
    ),
    Case(
        id="h16-sound-paid-leave-weighted-did",
        family=None,
        split=_SPLIT,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2004)
states = ["CA", "NJ", "RI", "NY", "WA", "MA", "TX", "FL", "GA", "OH", "PA", "MI", "NC", "AZ",
          "TN", "IN", "MO", "WI", "MN", "CO"]
pfl = {"CA", "NJ", "RI", "NY", "WA", "MA"}
parts = []
for st in states:
    s_eff = rng.normal(0, 0.04)
    for yr in range(2012, 2020):
        n = int(rng.integers(20, 45))
        post = int(st in pfl and yr >= 2016)
        p = np.clip(0.58 + s_eff + 0.005 * (yr - 2012) + 0.03 * post, 0, 1)
        parts.append(pd.DataFrame({
            "state": st, "year": yr, "pfl_post": post,
            "mother_age": rng.integers(20, 45, n),
            "employed_1yr": rng.binomial(1, p, n),
            "perwt": np.round(rng.gamma(4, 40, n), 1),
        }))
moms = pd.concat(parts, ignore_index=True)
''',
        note="survey-weighted linear probability DiD with state and year fixed effects and "
             "state-clustered SEs (20 clusters), weights used only for the point estimate",
        code='''
import statsmodels.formula.api as smf

wls = smf.wls("employed_1yr ~ pfl_post + mother_age + C(state) + C(year)", data=moms,
              weights=moms["perwt"]).fit(cov_type="cluster", cov_kwds={"groups": moms["state"]})
b, se = wls.params["pfl_post"], wls.bse["pfl_post"]
lo, hi = wls.conf_int().loc["pfl_post"]
print(f"mothers: {len(moms):,} (weighted N {moms['perwt'].sum():,.0f}), "
      f"{moms['state'].nunique()} states")
print(f"paid family leave and employment one year after birth: {b * 100:.2f} pp "
      f"(SE {se * 100:.2f}; 95% CI {lo * 100:.2f} to {hi * 100:.2f})")
''',
    ),
]
