"""Multiple comparisons, holdout2 idioms: one statsmodels formula regression per metabolite
in a results-dict loop, and Fisher exact tests per store via groupby.apply with np.where
labels."""

from textwrap import dedent

from bench.critic_corpus import Case

_COHORT = """\
import numpy as np
import pandas as pd
import statsmodels.formula.api as smf

rng = np.random.default_rng(4096)
n = 180
metabolites = [f"m_{name}" for name in (
    "alanine", "glycine", "serine", "valine", "leucine", "isoleucine", "proline",
    "citrate", "lactate", "pyruvate", "urate", "creatine", "carnitine", "choline",
    "betaine", "taurine", "glutamine", "ornithine", "tyrosine", "tryptophan",
    "kynurenine", "hippurate", "formate", "acetate", "succinate", "malate",
)]
cohort = pd.DataFrame(rng.normal(0, 1, (n, len(metabolites))), columns=metabolites)
cohort["age"] = rng.integers(30, 75, n)
cohort["sex"] = rng.choice(["F", "M"], n)
cohort["bmi"] = 24 + 0.06 * (cohort.age - 50) + 0.9 * cohort.m_valine + rng.normal(0, 3.5, n)
"""

_PROMO = """\
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(31337)
stores = [f"store_{i:02d}" for i in range(36)]
coupons = pd.DataFrame({
    "store": np.repeat(stores, 150),
    "got_coupon": np.tile([0, 1], 36 * 75),
})
base = rng.uniform(0.08, 0.2, len(stores))
coupons["redeemed"] = (rng.random(len(coupons))
                       < np.repeat(base, 150) * (1 + 0.05 * coupons.got_coupon)).astype(int)


def fisher_p(g):
    table = pd.crosstab(g.got_coupon, g.redeemed).reindex(index=[0, 1], columns=[0, 1],
                                                          fill_value=0)
    return stats.fisher_exact(table.to_numpy()).pvalue
"""

CASES: list[Case] = [
    Case(
        id="multcomp-metabolite-formula-loop",
        family="multiple_comparisons",
        twin="multcomp-metabolite-formula-loop-sound",
        split="holdout2",
        note="26 adjusted OLS models (one per metabolite); every metabolite with p < 0.05 is "
        "reported as associated with BMI, no multiplicity correction.",
        code=_COHORT + dedent("""\

            results = {}
            for m in metabolites:
                fit = smf.ols(f"bmi ~ {m} + age + C(sex)", data=cohort).fit()
                results[m] = {"beta": fit.params[m], "p": fit.pvalues[m]}
            table = pd.DataFrame(results).T.sort_values("p")
            hits = table.query("p < 0.05")
            print(hits.round(4))
            print(f"{len(hits)} of {len(metabolites)} metabolites associated with BMI")
        """),
    ),
    Case(
        id="multcomp-metabolite-formula-loop-sound",
        family=None,
        twin="multcomp-metabolite-formula-loop",
        split="holdout2",
        note="Same 26 models; associations declared at a Benjamini-Hochberg FDR of 5% "
        "(statsmodels multipletests).",
        code=_COHORT + dedent("""\
            from statsmodels.stats.multitest import multipletests

            results = {}
            for m in metabolites:
                fit = smf.ols(f"bmi ~ {m} + age + C(sex)", data=cohort).fit()
                results[m] = {"beta": fit.params[m], "p": fit.pvalues[m]}
            table = pd.DataFrame(results).T.sort_values("p")
            table["reject"], table["q"], *_ = multipletests(table.p, alpha=0.05,
                                                            method="fdr_bh")
            hits = table[table.reject]
            print(hits.round(4))
            print(f"{len(hits)} of {len(metabolites)} metabolites associated with BMI "
                  f"at FDR 5%")
        """),
    ),
    Case(
        id="multcomp-fisher-per-store-groupby",
        family="multiple_comparisons",
        twin="multcomp-fisher-per-store-groupby-sound",
        split="holdout2",
        note="Fisher exact test in each of 36 stores via groupby.apply; np.where labels "
        "stores 'coupon works' at p < 0.05 with no correction.",
        code=_PROMO + dedent("""\

            by_store = coupons.groupby("store").apply(fisher_p).rename("p").to_frame()
            by_store["verdict"] = np.where(by_store.p < 0.05, "coupon works", "no effect")
            print(by_store.sort_values("p").head(8).round(4))
            print(by_store.verdict.value_counts().to_string())
        """),
    ),
    Case(
        id="multcomp-fisher-per-store-groupby-sound",
        family=None,
        twin="multcomp-fisher-per-store-groupby",
        split="holdout2",
        note="Same per-store Fisher tests; verdicts use Holm-adjusted p-values across the "
        "36 stores.",
        code=_PROMO + dedent("""\
            from statsmodels.stats.multitest import multipletests

            by_store = coupons.groupby("store").apply(fisher_p).rename("p").to_frame()
            by_store["p_holm"] = multipletests(by_store.p, method="holm")[1]
            by_store["verdict"] = np.where(by_store.p_holm < 0.05, "coupon works", "no effect")
            print(by_store.sort_values("p").head(8).round(4))
            print(by_store.verdict.value_counts().to_string())
        """),
    ),
]
