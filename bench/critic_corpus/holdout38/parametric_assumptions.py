from bench.critic_corpus import Case

_COLD_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3809)
cold_old = np.round(rng.lognormal(np.log(900), 1.1, 11), 0)
cold_new = np.round(rng.lognormal(np.log(600), 1.1, 13), 0)
'''

_AZ_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3810)
rows = []
for az, p_zero, scale in (("us-east-1a", 0.7, 4.0), ("us-east-1b", 0.65, 5.0),
                          ("us-east-1c", 0.45, 12.0)):
    for h in range(9):
        burst = rng.random() > p_zero
        n5xx = int(rng.negative_binomial(0.6, 0.6 / (0.6 + scale))) + 1 if burst else 0
        rows.append({"az": az, "host": f"web-{az[-2:]}-{h:02d}", "errors_5xx": n5xx})
hosts = pd.DataFrame(rows)
'''

CASES: list[Case] = [
    Case(
        id="h38-pa-coldstart-ttest",
        family="parametric_assumptions",
        split="holdout38",
        twin="h38-pa-coldstart-ttest-ok",
        setup=_COLD_SETUP,
        code='''
from scipy import stats

t, p = stats.ttest_ind(cold_new, cold_old)
diff = cold_new.mean() - cold_old.mean()
se = np.sqrt(cold_new.var(ddof=1) / len(cold_new) + cold_old.var(ddof=1) / len(cold_old))
print("old runtime:", cold_old.astype(int).tolist())
print("new runtime:", cold_new.astype(int).tolist())
print(f"mean cold start: old {cold_old.mean():.0f} ms (n={len(cold_old)}), "
      f"new {cold_new.mean():.0f} ms (n={len(cold_new)})")
print(f"difference {diff:+.0f} ms, 95% CI [{diff - 1.96 * se:.0f}, {diff + 1.96 * se:.0f}] ms, "
      f"t = {t:.2f}, p = {p:.3f}")
''',
        note="Student t-test and a mean +/- 1.96 SE interval on 11 vs 13 heavily right-skewed "
             "cold-start times; normal theory does not hold at this n.",
    ),
    Case(
        id="h38-pa-coldstart-ttest-ok",
        family=None,
        split="holdout38",
        twin="h38-pa-coldstart-ttest",
        setup=_COLD_SETUP,
        code='''
from scipy import stats

# tiny, right-skewed samples: compare with a rank test and a Hodges-Lehmann shift
u, p = stats.mannwhitneyu(cold_new, cold_old, alternative="two-sided", method="exact")
hl_shift = np.median(np.subtract.outer(cold_new, cold_old))
print("old runtime:", cold_old.astype(int).tolist())
print("new runtime:", cold_new.astype(int).tolist())
print(f"median cold start: old {np.median(cold_old):.0f} ms (n={len(cold_old)}), "
      f"new {np.median(cold_new):.0f} ms (n={len(cold_new)})")
print(f"Hodges-Lehmann shift {hl_shift:+.0f} ms, Mann-Whitney U = {u:.0f}, exact p = {p:.3f}")
''',
        note="Exact Mann-Whitney test and a Hodges-Lehmann shift estimate, appropriate for tiny "
             "skewed samples.",
    ),
    Case(
        id="h38-pa-az-5xx-anova",
        family="parametric_assumptions",
        split="holdout38",
        twin="h38-pa-az-5xx-anova-ok",
        setup=_AZ_SETUP,
        code='''
from scipy import stats

summary = hosts.groupby("az")["errors_5xx"].agg(["count", "mean", "std"])
half = 1.96 * summary["std"] / np.sqrt(summary["count"])
summary["ci_lo"], summary["ci_hi"] = summary["mean"] - half, summary["mean"] + half
print(summary.round(2))
F, p = stats.f_oneway(*[g["errors_5xx"].to_numpy() for _, g in hosts.groupby("az")])
print(f"one-way ANOVA of 5xx per host across AZs: F = {F:.2f}, p = {p:.4f}")
''',
        note="ANOVA and normal CIs on 9 hosts per AZ of zero-inflated, overdispersed 5xx counts "
             "(CIs even go below zero).",
    ),
    Case(
        id="h38-pa-az-5xx-anova-ok",
        family=None,
        split="holdout38",
        twin="h38-pa-az-5xx-anova",
        setup=_AZ_SETUP,
        code='''
from scipy import stats

# mostly-zero, heavy-tailed counts on 9 hosts per AZ: describe with medians and the share of
# hosts that saw any 5xx, and test with Kruskal-Wallis rather than ANOVA
summary = hosts.groupby("az")["errors_5xx"].agg(
    hosts="count", median="median", max="max",
    share_with_5xx=lambda s: (s > 0).mean())
print(summary.round(2))
H, p = stats.kruskal(*[g["errors_5xx"].to_numpy() for _, g in hosts.groupby("az")])
print(f"Kruskal-Wallis across AZs: H = {H:.2f}, p = {p:.4f}")
''',
        note="Zero-inflated counts are summarised by medians and share of hosts affected and "
             "compared with the rank-based Kruskal-Wallis test.",
    ),
]
