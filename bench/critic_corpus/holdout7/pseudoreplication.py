"""Pseudoreplication, holdout7 idioms: a psycholinguistic lexical-decision experiment in which
concreteness is a property of the 40 words, analysed with a trial-level scipy t-test over 1,200
responses as if every trial were an independent observation of the word class (the language-as-
fixed-effect fallacy), and a hospital discharge protocol rolled out to three of six wards,
evaluated with a statsmodels OLS over 720 patient stays as if patients had been randomised."""

from textwrap import dedent

from bench.critic_corpus import Case

_LEXDEC = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(7616)
n_subj, n_items = 30, 40
items = pd.DataFrame({"item": [f"w{i:02d}" for i in range(n_items)],
                      "concreteness": np.repeat(["abstract", "concrete"], n_items // 2)})
item_eff = rng.normal(0, 55, n_items) - 15 * (items.concreteness == "concrete").to_numpy()
subj_eff = rng.normal(0, 70, n_subj)
trials = items.merge(pd.DataFrame({"subject": np.arange(n_subj)}), how="cross")
trials["rt_ms"] = (620 + item_eff[trials.index // n_subj] + subj_eff[trials.subject]
                   + rng.normal(0, 110, len(trials))).round()
"""

_WARDS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(7603)
wards = pd.DataFrame({"ward": ["A3", "B1", "B4", "C2", "D5", "D7"],
                      "protocol": [1, 1, 1, 0, 0, 0]})
ward_eff = rng.normal(0, 0.18, len(wards))      # case mix, staffing, consultant habits
stays = wards.loc[np.repeat(wards.index, 120)].reset_index(drop=True)
stays["los_days"] = np.exp(1.6 + ward_eff[np.repeat(np.arange(6), 120)]
                           - 0.05 * stays.protocol + rng.normal(0, 0.55, len(stays))).round(1)
"""

CASES: list[Case] = [
    Case(
        id="pseudorep-h7-lexical-decision-trials-as-items",
        family="pseudoreplication",
        twin="pseudorep-h7-lexical-decision-trials-as-items-sound",
        split="holdout7",
        setup=_LEXDEC,
        note="Concreteness varies between 40 words, but the t-test treats 1,200 repeated "
        "trials per class as independent, ignoring item (and subject) clustering.",
        code=dedent("""\
            from scipy import stats

            abstract = trials.loc[trials.concreteness == "abstract", "rt_ms"]
            concrete = trials.loc[trials.concreteness == "concrete", "rt_ms"]
            t, p = stats.ttest_ind(abstract, concrete)
            print(f"abstract {abstract.mean():.1f} ms vs concrete {concrete.mean():.1f} ms "
                  f"({len(abstract)} + {len(concrete)} trials)")
            print(f"concreteness effect = {abstract.mean() - concrete.mean():.1f} ms, "
                  f"t = {t:.2f}, p = {p:.2g}")
        """),
    ),
    Case(
        id="pseudorep-h7-lexical-decision-trials-as-items-sound",
        family=None,
        twin="pseudorep-h7-lexical-decision-trials-as-items",
        split="holdout7",
        setup=_LEXDEC,
        note="By-items analysis: RTs are averaged over subjects per word and the 20 abstract and "
        "20 concrete word means are compared, the word being the unit that carries the factor.",
        code=dedent("""\
            from scipy import stats

            item_means = trials.groupby(["item", "concreteness"], as_index=False)["rt_ms"].mean()
            abstract = item_means.loc[item_means.concreteness == "abstract", "rt_ms"]
            concrete = item_means.loc[item_means.concreteness == "concrete", "rt_ms"]
            t, p = stats.ttest_ind(abstract, concrete, equal_var=False)
            print(f"abstract {abstract.mean():.1f} ms vs concrete {concrete.mean():.1f} ms "
                  f"({len(abstract)} + {len(concrete)} words)")
            print(f"concreteness effect (by items) = {abstract.mean() - concrete.mean():.1f} ms, "
                  f"t = {t:.2f}, p = {p:.2g}")
        """),
    ),
    Case(
        id="pseudorep-h7-discharge-protocol-wards-patient-ols",
        family="pseudoreplication",
        twin="pseudorep-h7-discharge-protocol-wards-patient-ols-sound",
        split="holdout7",
        setup=_WARDS,
        note="The protocol was assigned to wards (3 vs 3), yet the OLS uses 720 patient stays as "
        "independent units; ward-to-ward variation is mistaken for a protocol effect.",
        code=dedent("""\
            import statsmodels.formula.api as smf

            fit = smf.ols("np.log(los_days) ~ protocol", data=stays).fit()
            ratio = np.exp(fit.params["protocol"])
            lo, hi = np.exp(fit.conf_int().loc["protocol"])
            print(f"{len(stays)} stays on {stays.ward.nunique()} wards")
            print(f"length of stay ratio, protocol vs usual care = {ratio:.3f} "
                  f"(95% CI {lo:.3f} to {hi:.3f}), p = {fit.pvalues['protocol']:.2g}")
        """),
    ),
    Case(
        id="pseudorep-h7-discharge-protocol-wards-patient-ols-sound",
        family=None,
        twin="pseudorep-h7-discharge-protocol-wards-patient-ols",
        split="holdout7",
        setup=_WARDS,
        note="The ward is the unit of assignment, so mean log length of stay is computed per "
        "ward and the OLS compares six ward means (3 vs 3), with the honest, wide interval.",
        code=dedent("""\
            import statsmodels.formula.api as smf

            per_ward = (stays.assign(log_los=np.log(stays.los_days))
                        .groupby(["ward", "protocol"], as_index=False)["log_los"].mean())
            fit = smf.ols("log_los ~ protocol", data=per_ward).fit()
            ratio = np.exp(fit.params["protocol"])
            lo, hi = np.exp(fit.conf_int().loc["protocol"])
            print(f"{len(stays)} stays on {len(per_ward)} wards (analysed per ward)")
            print(f"length of stay ratio, protocol vs usual care = {ratio:.3f} "
                  f"(95% CI {lo:.3f} to {hi:.3f}), p = {fit.pvalues['protocol']:.2g}")
        """),
    ),
]
