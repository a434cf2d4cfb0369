from bench.critic_corpus import Case

SPLIT = "holdout13"

CHARITY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(11)
mailed = pd.DataFrame({
    "supporter_id": [f"S{300000 + i}" for i in range(1200)],
    "letter_variant": np.repeat(["A_story", "B_impact"], 600),
})
resp_p = np.where(mailed["letter_variant"] == "A_story", 0.032, 0.038)
mailed["responded"] = rng.random(len(mailed)) < resp_p
mu = np.where(mailed["letter_variant"] == "A_story", 3.0, 3.55)
mailed["gift_gbp"] = np.where(mailed["responded"],
                              np.round(rng.lognormal(mu, 0.9), 0), np.nan)
# one legacy-style gift arrived against the A mailing
first_a = mailed.index[(mailed["letter_variant"] == "A_story") & mailed["responded"]][0]
mailed.loc[first_a, "gift_gbp"] = 2500.0
'''

CHARITY_FLAWED = '''
from scipy import stats

gifts = mailed.dropna(subset=["gift_gbp"])
summary = gifts.groupby("letter_variant")["gift_gbp"].agg(
    donors="count", mean="mean", median="median", sd="std", max="max", total="sum"
)
summary["response_rate"] = (
    mailed.groupby("letter_variant")["responded"].mean()
)
print(summary.round(2).to_string())

a = gifts.loc[gifts["letter_variant"] == "A_story", "gift_gbp"].to_numpy()
b = gifts.loc[gifts["letter_variant"] == "B_impact", "gift_gbp"].to_numpy()

t, p = stats.ttest_ind(b, a, equal_var=False)
diff = b.mean() - a.mean()
va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
se = np.sqrt(va + vb)
dof = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
half = stats.t.ppf(0.975, dof) * se

print(f"\\nAverage gift, B_impact minus A_story: GBP {diff:+.2f} "
      f"(95% CI {diff - half:+.2f} to {diff + half:+.2f})")
print(f"Welch t = {t:.2f}, df = {dof:.1f}, p = {p:.3f}")
if p < 0.05:
    winner = "B_impact" if diff > 0 else "A_story"
    print(f"Conclusion: {winner} raises a significantly larger average gift.")
else:
    print("Conclusion: no evidence the letters differ in average gift size; "
          "keep A_story as the control for the spring appeal.")
'''

CHARITY_SOUND = '''
from scipy import stats

gifts = mailed.dropna(subset=["gift_gbp"])
summary = gifts.groupby("letter_variant")["gift_gbp"].agg(
    donors="count", mean="mean", median="median", sd="std", max="max", total="sum"
)
summary["response_rate"] = (
    mailed.groupby("letter_variant")["responded"].mean()
)
print(summary.round(2).to_string())

a = gifts.loc[gifts["letter_variant"] == "A_story", "gift_gbp"].to_numpy()
b = gifts.loc[gifts["letter_variant"] == "B_impact", "gift_gbp"].to_numpy()

u, p = stats.mannwhitneyu(b, a, alternative="two-sided")
prob_sup = u / (len(a) * len(b))

rng_boot = np.random.default_rng(2024)
boot = np.array([
    np.median(rng_boot.choice(b, len(b))) - np.median(rng_boot.choice(a, len(a)))
    for _ in range(4000)
])
lo, hi = np.percentile(boot, [2.5, 97.5])
diff = np.median(b) - np.median(a)

print(f"\\nMedian gift, B_impact minus A_story: GBP {diff:+.2f} "
      f"(bootstrap 95% CI {lo:+.2f} to {hi:+.2f}, 4000 resamples)")
print(f"Mann-Whitney U = {u:.0f}, p = {p:.3f}; P(B gift > A gift) = {prob_sup:.2f}")
print(f"Gift sizes are heavily right-skewed (max GBP {gifts['gift_gbp'].max():.0f}), "
      "so rank-based comparison and medians are reported, not means.")
if p < 0.05:
    winner = "B_impact" if diff > 0 else "A_story"
    print(f"Conclusion: {winner} tends to bring larger gifts.")
else:
    print("Conclusion: no clear evidence the letters differ in typical gift size.")
'''

HANGAR_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1903)
sizes = {"HGR-1 Stansted": 7, "HGR-2 Luton": 8, "HGR-3 Prestwick": 6, "HGR-4 Cardiff": 9}
rows = []
for hangar, k in sizes.items():
    centre = {"HGR-1 Stansted": 2.6, "HGR-2 Luton": 2.7, "HGR-3 Prestwick": 2.5,
              "HGR-4 Cardiff": 2.65}[hangar]
    for j in range(k):
        hours = rng.lognormal(centre, 0.55)
        if rng.random() < 0.15:
            hours += rng.uniform(60, 140)  # AOG: waiting on parts
        rows.append({"work_order": f"WO-{hangar[4]}{j:03d}", "hangar": hangar,
                     "ata_chapter": rng.choice(["32", "29", "36", "21", "49"]),
                     "turnaround_h": round(hours, 1)})
repairs = pd.DataFrame(rows)
'''

HANGAR_FLAWED = '''
import statsmodels.api as sm
import statsmodels.formula.api as smf
from statsmodels.stats.multicomp import pairwise_tukeyhsd

desc = repairs.groupby("hangar")["turnaround_h"].agg(["count", "mean", "median", "std", "max"])
print("Unscheduled-repair turnaround (hours) by hangar, last quarter")
print(desc.round(1).to_string())

fit = smf.ols("turnaround_h ~ C(hangar)", data=repairs).fit()
aov = sm.stats.anova_lm(fit, typ=2)
print("\\nOne-way ANOVA")
print(aov.round(4).to_string())

eta_sq = aov.loc["C(hangar)", "sum_sq"] / aov["sum_sq"].sum()
p = aov.loc["C(hangar)", "PR(>F)"]
print(f"\\neta^2 = {eta_sq:.3f}, p = {p:.3f}")

tukey = pairwise_tukeyhsd(repairs["turnaround_h"], repairs["hangar"], alpha=0.05)
tk = pd.DataFrame(tukey.summary().data[1:], columns=tukey.summary().data[0])
print("\\nTukey HSD pairwise mean differences (hours)")
print(tk.to_string(index=False))

slowest = desc["mean"].idxmax()
if p < 0.05:
    print(f"\\nHangars differ in mean turnaround; {slowest} is slowest "
          f"({desc.loc[slowest, 'mean']:.1f} h on average).")
else:
    print(f"\\nNo significant difference in mean turnaround between hangars "
          f"(F-test p = {p:.2f}); no hangar-specific action needed.")
'''

HANGAR_SOUND = '''
from itertools import combinations

from scipy import stats
from statsmodels.stats.multitest import multipletests

desc = repairs.groupby("hangar")["turnaround_h"].agg(["count", "mean", "median", "std", "max"])
print("Unscheduled-repair turnaround (hours) by hangar, last quarter")
print(desc.round(1).to_string())

groups = {h: g["turnaround_h"].to_numpy() for h, g in repairs.groupby("hangar")}
h_stat, p = stats.kruskal(*groups.values())
n = len(repairs)
eps_sq = (h_stat - len(groups) + 1) / (n - len(groups))
print(f"\\nKruskal-Wallis H = {h_stat:.2f}, p = {p:.3f}, epsilon^2 = {eps_sq:.3f}")
print("(turnaround is right-skewed with AOG parts waits and groups have 6-9 jobs,"
      " so a rank test is used)")

pairs = []
for h1, h2 in combinations(groups, 2):
    u, pu = stats.mannwhitneyu(groups[h1], groups[h2], alternative="two-sided")
    pairs.append({"group1": h1, "group2": h2,
                  "median_diff_h": np.median(groups[h2]) - np.median(groups[h1]),
                  "p_raw": pu})
pw = pd.DataFrame(pairs)
pw["p_holm"] = multipletests(pw["p_raw"], method="holm")[1]
print("\\nPairwise Mann-Whitney, Holm-adjusted")
print(pw.round(3).to_string(index=False))

slowest = desc["median"].idxmax()
if p < 0.05:
    print(f"\\nHangars differ in typical turnaround; {slowest} has the highest median "
          f"({desc.loc[slowest, 'median']:.1f} h).")
else:
    print(f"\\nNo clear difference in typical turnaround between hangars "
          f"(Kruskal-Wallis p = {p:.2f}) with these small samples.")
'''

CASES: list[Case] = [
    Case(
        id="h13-parametric-charity-gift-welch-t",
        family="parametric_assumptions",
        code=CHARITY_FLAWED,
        setup=CHARITY_SETUP,
        twin="h13-parametric-charity-gift-mannwhitney",
        note="Welch t-test and t-interval on 23 gifts per arm that are lognormal with a "
             "GBP 2500 outlier; the mean comparison and 'no difference' call rest on it.",
        split=SPLIT,
    ),
    Case(
        id="h13-parametric-charity-gift-mannwhitney",
        family=None,
        code=CHARITY_SOUND,
        setup=CHARITY_SETUP,
        twin="h13-parametric-charity-gift-welch-t",
        note="Same gifts compared with Mann-Whitney and a seeded bootstrap CI of the median "
             "difference, appropriate for small skewed samples.",
        split=SPLIT,
    ),
    Case(
        id="h13-parametric-hangar-anova-skewed",
        family="parametric_assumptions",
        code=HANGAR_FLAWED,
        setup=HANGAR_SETUP,
        twin="h13-parametric-hangar-kruskal",
        note="One-way ANOVA and Tukey HSD on 6-9 heavily skewed turnaround times per hangar "
             "with AOG outliers; normality and equal variance clearly fail.",
        split=SPLIT,
    ),
    Case(
        id="h13-parametric-hangar-kruskal",
        family=None,
        code=HANGAR_SOUND,
        setup=HANGAR_SETUP,
        twin="h13-parametric-hangar-anova-skewed",
        note="Same comparison with Kruskal-Wallis and Holm-adjusted pairwise rank tests.",
        split=SPLIT,
    ),
]
