"""Pseudoreplication, holdout3 idioms: one-way ANOVA (f_oneway over a groupby) on the same
18 players tested three times, a statsmodels logit on ~900 teeth nested in 150 children, and a
numpy bootstrap that resamples students although whole classrooms were randomised."""

from textwrap import dedent

from bench.critic_corpus import Case

_SPRINTS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(903)
players = [f"P{i:02d}" for i in range(18)]
baseline = rng.normal(4.30, 0.15, len(players))     # 30 m sprint time (s) differs a lot by player
phase_shift = {"preseason": 0.0, "midseason": -0.05, "postseason": -0.08}
sprints = pd.DataFrame(
    [(p, phase, round(b + shift + rng.normal(0, 0.03), 3))
     for p, b in zip(players, baseline) for phase, shift in phase_shift.items()],
    columns=["player", "phase", "sprint_s"],
)
"""

_TEETH = """\
import numpy as np
import pandas as pd
import statsmodels.api as sm
import statsmodels.formula.api as smf

rng = np.random.default_rng(315)
n_children = 150
children = pd.DataFrame({
    "child_id": np.arange(n_children),
    "age": rng.integers(6, 13, n_children),
    "sealant": rng.integers(0, 2, n_children),        # sealant programme assigned per child
    "n_molars": rng.integers(4, 9, n_children),
})
frailty = rng.normal(0, 1.6, n_children)              # diet, brushing, saliva: shared by a mouth
teeth = children.loc[children.index.repeat(children.n_molars)].reset_index(drop=True)
lp = -0.8 - 0.45 * teeth.sealant + 0.08 * (teeth.age - 9) + frailty[teeth.child_id]
teeth["caries"] = (rng.random(len(teeth)) < 1 / (1 + np.exp(-lp))).astype(int)
"""

_CLASSROOMS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(44)
k = 24                                          # classrooms, 12 randomised to peer tutoring
size = rng.integers(18, 30, k)
arm = np.repeat([0, 1], k // 2)
room_effect = rng.normal(0, 6, k)
scores = pd.DataFrame({"classroom": np.repeat(np.arange(k), size),
                       "tutoring": np.repeat(arm, size)})
scores["score"] = (62 + 3 * scores.tutoring + room_effect[scores.classroom]
                   + rng.normal(0, 10, len(scores))).round(1)
"""

CASES: list[Case] = [
    Case(
        id="pseudorep-f-oneway-repeated-sprints",
        family="pseudoreplication",
        twin="pseudorep-f-oneway-repeated-sprints-sound",
        split="holdout3",
        setup=_SPRINTS,
        note="f_oneway treats the three test phases as independent groups although the same 18 "
        "players ran in each; between-player spread swamps the within-player improvement.",
        code=dedent("""\
            from scipy import stats

            by_phase = sprints.groupby("phase", sort=False).sprint_s
            print(by_phase.agg(["count", "mean", "std"]).round(3).to_string())
            f, p = stats.f_oneway(*(g for _, g in by_phase))
            print(f"one-way ANOVA across phases: F = {f:.2f}, p = {p:.3f}")
        """),
    ),
    Case(
        id="pseudorep-f-oneway-repeated-sprints-sound",
        family=None,
        twin="pseudorep-f-oneway-repeated-sprints",
        split="holdout3",
        setup=_SPRINTS,
        note="Repeated-measures ANOVA (statsmodels AnovaRM) with player as the subject, so each "
        "player is compared with themself across the three phases.",
        code=dedent("""\
            from statsmodels.stats.anova import AnovaRM

            by_phase = sprints.groupby("phase", sort=False).sprint_s
            print(by_phase.agg(["count", "mean", "std"]).round(3).to_string())
            rm = AnovaRM(sprints, depvar="sprint_s", subject="player", within=["phase"]).fit()
            row = rm.anova_table.loc["phase"]
            print(f"repeated-measures ANOVA across phases: F({row['Num DF']:.0f}, "
                  f"{row['Den DF']:.0f}) = {row['F Value']:.2f}, p = {row['Pr > F']:.2g}")
        """),
    ),
    Case(
        id="pseudorep-logit-teeth-as-children",
        family="pseudoreplication",
        twin="pseudorep-logit-teeth-as-children-sound",
        split="holdout3",
        setup=_TEETH,
        note="Ordinary logit on ~900 molars as independent observations; sealant was assigned "
        "per child and teeth in one mouth share risk, so the p-value is far too small.",
        code=dedent("""\
            fit = smf.logit("caries ~ sealant + age", data=teeth).fit(disp=0)
            odds = np.exp(fit.params["sealant"])
            lo, hi = np.exp(fit.conf_int().loc["sealant"])
            print(f"{len(teeth)} molars examined, caries in {teeth.caries.mean():.0%}")
            print(f"sealant odds ratio {odds:.2f} (95% CI {lo:.2f}-{hi:.2f}), "
                  f"p = {fit.pvalues['sealant']:.4f}")
        """),
    ),
    Case(
        id="pseudorep-logit-teeth-as-children-sound",
        family=None,
        twin="pseudorep-logit-teeth-as-children",
        split="holdout3",
        setup=_TEETH,
        note="GEE logistic model with an exchangeable working correlation clustered on child, "
        "giving robust standard errors for the child-level sealant effect.",
        code=dedent("""\
            fit = smf.gee("caries ~ sealant + age", groups="child_id", data=teeth,
                          family=sm.families.Binomial(),
                          cov_struct=sm.cov_struct.Exchangeable()).fit()
            odds = np.exp(fit.params["sealant"])
            lo, hi = np.exp(fit.conf_int().loc["sealant"])
            print(f"{len(teeth)} molars in {teeth.child_id.nunique()} children, "
                  f"caries in {teeth.caries.mean():.0%}")
            print(f"sealant odds ratio {odds:.2f} (95% CI {lo:.2f}-{hi:.2f}), "
                  f"p = {fit.pvalues['sealant']:.4f}")
        """),
    ),
    Case(
        id="pseudorep-student-bootstrap-classrooms",
        family="pseudoreplication",
        twin="pseudorep-student-bootstrap-classrooms-sound",
        split="holdout3",
        setup=_CLASSROOMS,
        note="Students are resampled one by one although tutoring was randomised by classroom "
        "(24 units), so the bootstrap CI ignores the classroom effect and excludes zero.",
        code=dedent("""\
            boot_rng = np.random.default_rng(11)
            treated = scores.loc[scores.tutoring == 1, "score"].to_numpy()
            control = scores.loc[scores.tutoring == 0, "score"].to_numpy()
            diffs = np.array([
                boot_rng.choice(treated, treated.size).mean()
                - boot_rng.choice(control, control.size).mean()
                for _ in range(2000)
            ])
            lo, hi = np.percentile(diffs, [2.5, 97.5])
            print(f"{len(scores)} students: tutoring effect {treated.mean() - control.mean():+.2f} "
                  f"points, 95% bootstrap CI [{lo:.2f}, {hi:.2f}]")
        """),
    ),
    Case(
        id="pseudorep-student-bootstrap-classrooms-sound",
        family=None,
        twin="pseudorep-student-bootstrap-classrooms",
        split="holdout3",
        setup=_CLASSROOMS,
        note="Cluster bootstrap: whole classrooms (the randomised units) are resampled within "
        "each arm, so the CI reflects between-classroom variation.",
        code=dedent("""\
            boot_rng = np.random.default_rng(11)
            rooms = scores.groupby(["tutoring", "classroom"]).score.agg(["sum", "count"])


            def arm_means(arm, n_boot=2000):
                totals = rooms.loc[arm].to_numpy()
                pick = boot_rng.integers(0, len(totals), (n_boot, len(totals)))
                return totals[pick, 0].sum(axis=1) / totals[pick, 1].sum(axis=1)


            diffs = arm_means(1) - arm_means(0)
            lo, hi = np.percentile(diffs, [2.5, 97.5])
            effect = scores.groupby("tutoring").score.mean().diff().iloc[-1]
            print(f"{len(scores)} students in {len(rooms)} classrooms: tutoring effect "
                  f"{effect:+.2f} points, 95% cluster-bootstrap CI [{lo:.2f}, {hi:.2f}]")
        """),
    ),
]
