"""Independent-samples tests on paired or repeated measurements of the same units."""

from textwrap import dedent

from bench.critic_corpus import Case

_BP = """\
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(17)
n = 30
week0 = rng.normal(150, 15, n)
bp = pd.DataFrame({
    "patient": [f"P{i:03d}" for i in range(n)],
    "sbp_week0": week0.round(1),
    "sbp_week8": (week0 - rng.normal(4, 6, n)).round(1),
})
"""

_GRIP = """\
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(2)
rows = []
for genotype, effect in [("WT", 0.0), ("KO", -5.0)]:
    for m in range(10):
        mouse_level = 100 + effect + rng.normal(0, 8)
        for trial in range(10):
            rows.append({"genotype": genotype, "mouse": f"{genotype}-{m}", "trial": trial,
                         "grip_g": mouse_level + rng.normal(0, 4)})
grip = pd.DataFrame(rows)
"""

_PLOTS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10)
records = []
for treatment in ["control", "nitrogen"]:
    for p in range(8):
        plot_effect = rng.normal(0, 40)
        for q in range(6):
            records.append({
                "treatment": treatment,
                "plot": f"{treatment[:1].upper()}{p}",
                "quadrat": q,
                "biomass_g": 320 + 25 * (treatment == "nitrogen") + plot_effect
                + rng.normal(0, 20),
            })
quadrats = pd.DataFrame(records)
"""

_VISITS = """\
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(19)
users = pd.DataFrame({
    "user_id": np.arange(1200),
    "variant": np.repeat(["A", "B"], 600),
    "propensity": rng.beta(0.6, 6, 1200),
    "n_sessions": rng.poisson(3, 1200) + 1 + (rng.random(1200) < 0.05) * 25,
})
sessions = users.loc[users.index.repeat(users.n_sessions)].reset_index(drop=True)
sessions["converted"] = (rng.random(len(sessions)) < sessions.propensity).astype(int)
"""

CASES: list[Case] = [
    Case(
        id="pseudorep-ttest-ind-before-after-bp",
        family="pseudoreplication",
        twin="pseudorep-ttest-ind-before-after-bp-sound",
        note="ttest_ind on week-0 vs week-8 blood pressure of the same 30 patients; the "
        "pairing is ignored.",
        code=_BP + dedent("""\

            t, p = stats.ttest_ind(bp.sbp_week0, bp.sbp_week8)
            print(f"mean SBP {bp.sbp_week0.mean():.1f} -> {bp.sbp_week8.mean():.1f} mmHg; "
                  f"t = {t:.2f}, p = {p:.4f}")
        """),
    ),
    Case(
        id="pseudorep-ttest-ind-before-after-bp-sound",
        family=None,
        twin="pseudorep-ttest-ind-before-after-bp",
        note="Paired t-test (ttest_rel) on the within-patient change; the differences are "
        "roughly normal with n = 30.",
        code=_BP + dedent("""\

            t, p = stats.ttest_rel(bp.sbp_week0, bp.sbp_week8)
            change = bp.sbp_week8 - bp.sbp_week0
            print(f"mean change {change.mean():.1f} mmHg (SD {change.std():.1f}); "
                  f"paired t = {t:.2f}, p = {p:.4f}")
        """),
    ),
    Case(
        id="pseudorep-grip-trials-as-mice",
        family="pseudoreplication",
        twin="pseudorep-grip-trials-as-mice-sound",
        note="Ten repeated grip trials per mouse treated as 100 independent observations per "
        "genotype (true n is 10 mice).",
        code=_GRIP + dedent("""\

            ko = grip.loc[grip.genotype == "KO", "grip_g"]
            wt = grip.loc[grip.genotype == "WT", "grip_g"]
            t, p = stats.ttest_ind(ko, wt)
            print(f"KO {ko.mean():.1f} g vs WT {wt.mean():.1f} g (n = {len(ko)} vs {len(wt)}), "
                  f"t = {t:.2f}, p = {p:.2g}")
        """),
    ),
    Case(
        id="pseudorep-grip-trials-as-mice-sound",
        family=None,
        twin="pseudorep-grip-trials-as-mice",
        note="Trials averaged within each mouse first; the t-test compares 10 vs 10 mouse "
        "means.",
        code=_GRIP + dedent("""\

            per_mouse = grip.groupby(["genotype", "mouse"], as_index=False)["grip_g"].mean()
            ko = per_mouse.loc[per_mouse.genotype == "KO", "grip_g"]
            wt = per_mouse.loc[per_mouse.genotype == "WT", "grip_g"]
            t, p = stats.ttest_ind(ko, wt)
            print(f"KO {ko.mean():.1f} g vs WT {wt.mean():.1f} g (n = {len(ko)} vs {len(wt)} mice),"
                  f" t = {t:.2f}, p = {p:.2g}")
        """),
    ),
    Case(
        id="pseudorep-quadrats-as-plots",
        family="pseudoreplication",
        twin="pseudorep-quadrats-as-plots-sound",
        setup=_PLOTS,
        note="Six quadrats per plot pooled as independent replicates in a t-test; treatment "
        "was applied to whole plots.",
        code=dedent("""\
            from scipy import stats

            fert = quadrats.query("treatment == 'nitrogen'").biomass_g
            ctrl = quadrats.query("treatment == 'control'").biomass_g
            res = stats.ttest_ind(fert, ctrl)
            print(f"nitrogen +{fert.mean() - ctrl.mean():.0f} g/m2 "
                  f"(t = {res.statistic:.2f}, df = {res.df:.0f}, p = {res.pvalue:.4f})")
        """),
    ),
    Case(
        id="pseudorep-quadrats-as-plots-sound",
        family=None,
        twin="pseudorep-quadrats-as-plots",
        setup=_PLOTS,
        note="Linear mixed model with a random intercept per plot, so plots (not quadrats) "
        "are the replicates.",
        code=dedent("""\
            import statsmodels.formula.api as smf

            mm = smf.mixedlm("biomass_g ~ treatment", data=quadrats, groups="plot").fit()
            est = mm.params["treatment[T.nitrogen]"]
            p = mm.pvalues["treatment[T.nitrogen]"]
            print(f"nitrogen +{est:.0f} g/m2 (mixed model, plot random intercept, p = {p:.4f})")
        """),
    ),
    Case(
        id="pseudorep-chi2-stacked-sessions",
        family="pseudoreplication",
        twin="pseudorep-chi2-stacked-sessions-sound",
        note="Chi-square on sessions although many sessions belong to the same user (heavy "
        "users repeat up to ~30 times).",
        code=_VISITS + dedent("""\

            table = pd.crosstab(sessions.variant, sessions.converted)
            chi2, p, dof, _ = stats.chi2_contingency(table)
            rates = sessions.groupby("variant")["converted"].mean()
            print(table)
            print(f"session conversion A {rates['A']:.2%} vs B {rates['B']:.2%}; "
                  f"chi2 = {chi2:.2f}, p = {p:.4f}")
        """),
    ),
    Case(
        id="pseudorep-chi2-stacked-sessions-sound",
        family=None,
        twin="pseudorep-chi2-stacked-sessions",
        note="Collapsed to one row per user (converted in any session) before the chi-square, "
        "so each unit of randomisation counts once.",
        code=_VISITS + dedent("""\

            per_user = sessions.groupby(["user_id", "variant"], as_index=False)["converted"].max()
            table = pd.crosstab(per_user.variant, per_user.converted)
            chi2, p, dof, _ = stats.chi2_contingency(table)
            rates = per_user.groupby("variant")["converted"].mean()
            print(table)
            print(f"user conversion A {rates['A']:.2%} vs B {rates['B']:.2%}; "
                  f"chi2 = {chi2:.2f}, p = {p:.4f}")
        """),
    ),
]
