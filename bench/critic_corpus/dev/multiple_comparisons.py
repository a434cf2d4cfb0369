"""Many hypothesis tests, each judged at p < 0.05 with no multiplicity correction."""

from textwrap import dedent

from bench.critic_corpus import Case

_EXPR = """\
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(2024)
n_genes = 300
genes = [f"GENE{i:04d}" for i in range(n_genes)]
shift = np.zeros(n_genes)
shift[:6] = 1.4                                   # a handful of genuinely changed genes
tumor = pd.DataFrame(rng.normal(8 + shift, 1.2, (24, n_genes)), columns=genes)
normal = pd.DataFrame(rng.normal(8, 1.2, (24, n_genes)), columns=genes)
"""

_AB = """\
import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.proportion import proportions_ztest

rng = np.random.default_rng(56)
n = 2500                                           # users per arm
binary_metrics = ["converted", "added_to_cart", "bounced", "used_search", "opened_help"]
continuous_metrics = ["pages_per_visit", "scroll_depth", "secs_to_first_click",
                      "items_viewed", "filters_used"]
arms = {}
for arm in ["control", "new_checkout"]:
    arms[arm] = pd.DataFrame({
        "converted": rng.random(n) < 0.052,
        "added_to_cart": rng.random(n) < 0.14,
        "bounced": rng.random(n) < 0.38,
        "used_search": rng.random(n) < 0.22,
        "opened_help": rng.random(n) < 0.03,
        "pages_per_visit": rng.normal(4.2, 1.6, n),
        "scroll_depth": rng.beta(4, 3, n),
        "secs_to_first_click": rng.normal(7.5, 2.0, n),
        "items_viewed": rng.normal(9.0, 3.0, n),
        "filters_used": rng.normal(1.8, 0.7, n),
    })

rows = []
for metric in binary_metrics:
    successes = [arms[a][metric].sum() for a in ("new_checkout", "control")]
    _, p = proportions_ztest(successes, [n, n])
    rows.append({"metric": metric, "control": arms["control"][metric].mean(),
                 "treatment": arms["new_checkout"][metric].mean(), "p_value": p})
for metric in continuous_metrics:
    _, p = stats.ttest_ind(arms["new_checkout"][metric], arms["control"][metric],
                           equal_var=False)
    rows.append({"metric": metric, "control": arms["control"][metric].mean(),
                 "treatment": arms["new_checkout"][metric].mean(), "p_value": p})
results = pd.DataFrame(rows).set_index("metric")
"""

_STORES = """\
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(5)
region_means = {"north": 52.0, "south": 50.5, "east": 51.0, "west": 50.0,
                "central": 51.5, "coastal": 50.8}
stores = pd.DataFrame([
    {"region": r, "store": f"{r[:2].upper()}{i:02d}", "weekly_sales_k": rng.normal(mu, 4.0)}
    for r, mu in region_means.items() for i in range(30)
])
"""

_TRIAL = """\
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(44)
n = 1440
trial = pd.DataFrame({
    "arm": rng.permutation(np.repeat(["statin", "placebo"], n // 2)),
    "age_band": rng.choice(["<50", "50-65", ">65"], n),
    "sex": rng.choice(["F", "M"], n),
    "diabetic": rng.choice(["yes", "no"], n, p=[0.3, 0.7]),
})
trial["ldl_change"] = rng.normal(-2, 22, n) - 4 * (trial.arm == "statin")
"""

CASES: list[Case] = [
    Case(
        id="multcomp-gene-loop-ttest",
        family="multiple_comparisons",
        twin="multcomp-gene-loop-ttest-sound",
        setup=_EXPR,
        note="300 per-gene t-tests, every gene with p < 0.05 listed as differentially "
        "expressed (about 15 false positives expected).",
        code=dedent("""\
            hits = []
            for g in genes:
                t, p = stats.ttest_ind(tumor[g], normal[g])
                if p < 0.05:
                    hits.append((g, round(t, 2), round(p, 4)))

            print(f"{len(hits)} differentially expressed genes (p < 0.05):")
            for gene, t, p in hits:
                print(f"  {gene}: t = {t}, p = {p}")
        """),
    ),
    Case(
        id="multcomp-gene-loop-ttest-sound",
        family=None,
        twin="multcomp-gene-loop-ttest",
        setup=_EXPR,
        note="Same 300 t-tests, but genes are called at a Benjamini-Hochberg FDR of 5%.",
        code=dedent("""\
            from statsmodels.stats.multitest import multipletests

            pvals = []
            for g in genes:
                t, p = stats.ttest_ind(tumor[g], normal[g])
                pvals.append(p)
            reject, qvals, _, _ = multipletests(pvals, alpha=0.05, method="fdr_bh")

            de = pd.DataFrame({"gene": genes, "p": pvals, "q": qvals})[reject]
            print(f"{reject.sum()} differentially expressed genes (BH FDR < 0.05):")
            print(de.sort_values("q").round(5).to_string(index=False))
        """),
    ),
    Case(
        id="multcomp-ab-ten-metrics",
        family="multiple_comparisons",
        twin="multcomp-ab-ten-metrics-sound",
        note="A/B test read out on ten metrics, each flagged significant at p < 0.05 with no "
        "correction.",
        code=_AB + dedent("""\

            results["significant"] = results.p_value < 0.05
            print("Metrics moved by the new checkout:", list(results.index[results.significant]))
            results.round(4)
        """),
    ),
    Case(
        id="multcomp-ab-ten-metrics-sound",
        family=None,
        twin="multcomp-ab-ten-metrics",
        note="Same ten metrics, but significance is judged on Holm-adjusted p-values.",
        code=_AB + dedent("""\
            from statsmodels.stats.multitest import multipletests

            results["p_holm"] = multipletests(results.p_value, method="holm")[1]
            results["significant"] = results.p_holm < 0.05
            print("Metrics moved by the new checkout (Holm-adjusted):",
                  list(results.index[results.significant]))
            results.round(4)
        """),
    ),
    Case(
        id="multcomp-pairwise-regions",
        family="multiple_comparisons",
        twin="multcomp-pairwise-regions-sound",
        note="All 15 pairwise t-tests between six regions, significance at 0.05 each.",
        code=_STORES + dedent("""\

            pairs = []
            for a, b in combinations(region_means, 2):
                t, p = stats.ttest_ind(stores.loc[stores.region == a, "weekly_sales_k"],
                                       stores.loc[stores.region == b, "weekly_sales_k"])
                pairs.append({"pair": f"{a} vs {b}", "t": t, "p": p, "significant": p < 0.05})
            pairs = pd.DataFrame(pairs)
            print(pairs[pairs.significant].round(4).to_string(index=False))
        """),
    ),
    Case(
        id="multcomp-pairwise-regions-sound",
        family=None,
        twin="multcomp-pairwise-regions",
        note="Pairwise region comparisons with Tukey's HSD, which controls the family-wise "
        "error rate.",
        code=_STORES + dedent("""\
            from statsmodels.stats.multicomp import pairwise_tukeyhsd

            tukey = pairwise_tukeyhsd(stores.weekly_sales_k, stores.region, alpha=0.05)
            print(tukey.summary())
        """),
    ),
    Case(
        id="multcomp-trial-subgroups",
        family="multiple_comparisons",
        twin="multcomp-trial-subgroups-sound",
        note="Treatment effect tested separately in 12 subgroups; subgroups with p < 0.05 are "
        "reported as responders.",
        code=_TRIAL + dedent("""\

            out = []
            for (age, sex, dm), g in trial.groupby(["age_band", "sex", "diabetic"]):
                treated = g.loc[g.arm == "statin", "ldl_change"]
                ctrl = g.loc[g.arm == "placebo", "ldl_change"]
                res = stats.ttest_ind(treated, ctrl)
                out.append((f"age {age}, {sex}, diabetic={dm}",
                            treated.mean() - ctrl.mean(), res.pvalue))

            for label, diff, p in sorted(out, key=lambda r: r[2]):
                verdict = "RESPONDS" if p < 0.05 else ""
                print(f"{label:32s} diff={diff:6.1f} mg/dL  p={p:.3f} {verdict}")
        """),
    ),
    Case(
        id="multcomp-trial-subgroups-sound",
        family=None,
        twin="multcomp-trial-subgroups",
        note="Same 12 subgroup tests, judged on Benjamini-Hochberg adjusted p-values "
        "(scipy.stats.false_discovery_control).",
        code=_TRIAL + dedent("""\

            out = []
            for (age, sex, dm), g in trial.groupby(["age_band", "sex", "diabetic"]):
                treated = g.loc[g.arm == "statin", "ldl_change"]
                ctrl = g.loc[g.arm == "placebo", "ldl_change"]
                res = stats.ttest_ind(treated, ctrl)
                out.append((f"age {age}, {sex}, diabetic={dm}",
                            treated.mean() - ctrl.mean(), res.pvalue))

            q = stats.false_discovery_control([p for _, _, p in out])
            for (label, diff, p), q_i in sorted(zip(out, q, strict=True), key=lambda r: r[1]):
                verdict = "RESPONDS" if q_i < 0.05 else ""
                print(f"{label:32s} diff={diff:6.1f} mg/dL  p={p:.3f} q={q_i:.3f} {verdict}")
        """),
    ),
]
