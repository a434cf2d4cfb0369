from bench.critic_corpus import Case

_PEN_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3711)
rows = []
# grower-finisher trial: diet randomised to pens, 6 pens per diet, 15 pigs per pen
for diet, mu in [("standard_CP", 880.0), ("low_CP_AA", 870.0)]:
    for k in range(6):
        pen_eff = rng.normal(0, 45)
        pen = f"{'S' if diet == 'standard_CP' else 'L'}{k + 1}"
        start = rng.normal(31, 3, 15)
        adg = mu + pen_eff + rng.normal(0, 85, 15)
        rows.append(pd.DataFrame({"diet": diet, "pen": pen,
                                  "pig": [f"{pen}-{j}" for j in range(15)],
                                  "start_wt_kg": start.round(1), "adg_g": adg.round()}))
pigs = pd.concat(rows, ignore_index=True)
'''

_COW_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3712)
n_cows, n_weeks = 40, 10
cow_ids = [f"DK{41200 + i}" for i in range(n_cows)]
group = np.repeat(["control", "RP_methionine"], n_cows // 2)
cow_eff = rng.normal(0, 5.0, n_cows)
parity = rng.integers(1, 5, n_cows)
recs = []
for i, cow in enumerate(cow_ids):
    wk = np.arange(1, n_weeks + 1)
    milk = (36 + cow_eff[i] + 1.5 * (parity[i] > 1) + 0.9 * (group[i] == "RP_methionine")
            - 0.15 * wk + rng.normal(0, 1.8, n_weeks))
    recs.append(pd.DataFrame({"cow": cow, "group": group[i], "parity": parity[i],
                              "week": wk, "milk_kg": milk.round(1)}))
weekly = pd.concat(recs, ignore_index=True)
'''

CASES = [
    Case(
        id="h37-pseudo-pigs-as-units",
        family="pseudoreplication",
        twin="h37-pseudo-pen-means",
        setup=_PEN_SETUP,
        code='''from scipy import stats

print(pigs.groupby("diet")["adg_g"].describe()[["count", "mean", "std"]].round(1))

std_cp = pigs.loc[pigs.diet == "standard_CP", "adg_g"]
low_cp = pigs.loc[pigs.diet == "low_CP_AA", "adg_g"]
t, p = stats.ttest_ind(std_cp, low_cp)
diff = std_cp.mean() - low_cp.mean()
print(f"\\nADG difference (standard - low CP): {diff:.1f} g/d, t = {t:.2f}, "
      f"df = {len(std_cp) + len(low_cp) - 2}, P = {p:.4f}")
''',
        note="Diet was randomised to pens, but the t-test treats 180 pigs as independent "
             "units (df = 178) instead of 12 pens, overstating the precision.",
        split="holdout37",
    ),
    Case(
        id="h37-pseudo-pen-means",
        family=None,
        twin="h37-pseudo-pigs-as-units",
        setup=_PEN_SETUP,
        code='''from scipy import stats

# the pen is the experimental unit: average pigs within pen, then compare 6 vs 6 pens
pen_means = pigs.groupby(["diet", "pen"], as_index=False)["adg_g"].mean()
print(pen_means.groupby("diet")["adg_g"].describe()[["count", "mean", "std"]].round(1))

std_cp = pen_means.loc[pen_means.diet == "standard_CP", "adg_g"]
low_cp = pen_means.loc[pen_means.diet == "low_CP_AA", "adg_g"]
t, p = stats.ttest_ind(std_cp, low_cp)
diff = std_cp.mean() - low_cp.mean()
print(f"\\nADG difference (standard - low CP): {diff:.1f} g/d, t = {t:.2f}, "
      f"df = {len(std_cp) + len(low_cp) - 2}, P = {p:.4f}")
''',
        note="Pig ADG is averaged within pen and the diets are compared on the 12 pen means, "
             "matching the unit of randomisation.",
        split="holdout37",
    ),
    Case(
        id="h37-pseudo-cowweeks-ols",
        family="pseudoreplication",
        twin="h37-pseudo-cowweeks-mixedlm",
        setup=_COW_SETUP,
        code='''import statsmodels.formula.api as smf

print(weekly.pivot_table(index="week", columns="group", values="milk_kg").round(1).T)

fit = smf.ols("milk_kg ~ C(group, Treatment('control')) + week + C(parity > 1)",
              data=weekly).fit()
term = "C(group, Treatment('control'))[T.RP_methionine]"
lo, hi = fit.conf_int().loc[term]
print(f"\\nRP-methionine effect on milk yield: {fit.params[term]:+.2f} kg/d "
      f"(95% CI {lo:.2f} to {hi:.2f}), P = {fit.pvalues[term]:.4f}, n = {int(fit.nobs)}")
''',
        note="Ten weekly records per cow are fitted with OLS as 400 independent observations; "
             "the cow-level treatment effect gets a far too narrow CI and small P.",
        split="holdout37",
    ),
    Case(
        id="h37-pseudo-cowweeks-mixedlm",
        family=None,
        twin="h37-pseudo-cowweeks-ols",
        setup=_COW_SETUP,
        code='''import statsmodels.formula.api as smf

print(weekly.pivot_table(index="week", columns="group", values="milk_kg").round(1).T)

# repeated weekly yields within cow: random intercept for cow, treatment tested between cows
fit = smf.mixedlm("milk_kg ~ C(group, Treatment('control')) + week + C(parity > 1)",
                  data=weekly, groups=weekly["cow"]).fit(reml=True)
term = "C(group, Treatment('control'))[T.RP_methionine]"
lo, hi = fit.conf_int().loc[term]
print(f"\\nRP-methionine effect on milk yield: {fit.params[term]:+.2f} kg/d "
      f"(95% CI {lo:.2f} to {hi:.2f}), P = {fit.pvalues[term]:.4f}, "
      f"{weekly.cow.nunique()} cows x {weekly.week.nunique()} weeks")
print(f"between-cow variance {float(fit.cov_re.iloc[0, 0]):.1f}, residual {fit.scale:.1f}")
''',
        note="A linear mixed model with a random intercept per cow accounts for the repeated "
             "weekly records, so the treatment effect is judged against between-cow variation.",
        split="holdout37",
    ),
]
