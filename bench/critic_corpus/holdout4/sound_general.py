"""Ordinary sound analyses, holdout4: a Hubble-law fit with curve_fit and its standard error, a
Shewhart X-bar chart whose limits come from a phase-I baseline, a single pre-specified risk
ratio from a food-borne outbreak cohort, and a descriptive pivot of listening hours by plan."""

from textwrap import dedent

from bench.critic_corpus import Case

CASES: list[Case] = [
    Case(
        id="sound-hubble-curve-fit-distances",
        family=None,
        split="holdout4",
        note="Seeded synthetic galaxies; a one-parameter v = H0 * d fit through the origin with "
        "curve_fit, the standard error taken from the covariance matrix and residuals checked.",
        code=dedent("""\
            import numpy as np
            from scipy.optimize import curve_fit

            rng = np.random.default_rng(70)
            dist_mpc = rng.uniform(10, 400, 120)
            velocity = 70.0 * dist_mpc + rng.normal(0, 350, 120)   # peculiar velocities


            def hubble(d, h0):
                return h0 * d


            (h0,), cov = curve_fit(hubble, dist_mpc, velocity, p0=[60.0])
            se = float(np.sqrt(cov[0, 0]))
            resid = velocity - hubble(dist_mpc, h0)
            print(f"H0 = {h0:.1f} +/- {se:.1f} km/s/Mpc (95% CI {h0 - 1.96 * se:.1f}"
                  f" to {h0 + 1.96 * se:.1f}), residual SD = {resid.std(ddof=1):.0f} km/s")
        """),
    ),
    Case(
        id="sound-xbar-chart-phase-one-limits",
        family=None,
        split="holdout4",
        note="Control limits estimated from 25 in-control phase-I subgroups (mean of means, "
        "mean range with the A2 constant) and only then applied to the 20 phase-II subgroups.",
        code=dedent("""\
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(515)
            fill = rng.normal(500.0, 1.2, (45, 5))          # 45 subgroups of 5 bottles (ml)
            fill[38:] += 2.5                                  # a nozzle drifts late in phase II
            sub = pd.DataFrame({"xbar": fill.mean(axis=1), "range": np.ptp(fill, axis=1)})
            phase1, phase2 = sub.iloc[:25], sub.iloc[25:]
            A2 = 0.577                                        # control-chart constant for n = 5
            centre, rbar = phase1.xbar.mean(), phase1["range"].mean()
            lcl, ucl = centre - A2 * rbar, centre + A2 * rbar
            signals = phase2.index[(phase2.xbar > ucl) | (phase2.xbar < lcl)].tolist()
            print(f"centre {centre:.2f} ml, limits {lcl:.2f}-{ucl:.2f} ml")
            print(f"phase-II subgroups out of control: {signals}")
        """),
    ),
    Case(
        id="sound-outbreak-risk-ratio-single",
        family=None,
        split="holdout4",
        note="One pre-specified exposure (the chicken salad) in a retrospective cohort with "
        "large cell counts: risk ratio with its CI and a chi-square test via Table2x2.",
        code=dedent("""\
            import numpy as np
            from statsmodels.stats.contingency_tables import Table2x2

            #                ill, not ill
            table = np.array([[58, 71],      # ate the chicken salad
                              [19, 112]])    # did not
            t = Table2x2(table)
            lo, hi = t.riskratio_confint()
            attack = table[:, 0] / table.sum(axis=1)
            print(f"attack rate: exposed {attack[0]:.1%}, unexposed {attack[1]:.1%}")
            print(f"risk ratio = {t.riskratio:.2f} (95% CI {lo:.2f}-{hi:.2f}), "
                  f"chi-square p = {t.test_nominal_association().pvalue:.1e}")
        """),
    ),
    Case(
        id="sound-pivot-listening-hours-by-plan",
        family=None,
        split="holdout4",
        note="Descriptive pivot of complete, seeded listening data: medians by plan and age "
        "band with group sizes; no inference is claimed.",
        code=dedent("""\
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(3232)
            n = 2000
            users = pd.DataFrame({
                "plan": rng.choice(["free", "student", "individual", "family"], n,
                                   p=[0.4, 0.15, 0.3, 0.15]),
                "age_band": rng.choice(["18-24", "25-34", "35-49", "50+"], n),
            })
            base = users.plan.map({"free": 6, "student": 11, "individual": 13, "family": 10})
            users["weekly_hours"] = rng.gamma(2.0, base / 2.0).round(1)
            summary = users.pivot_table(index="plan", columns="age_band", values="weekly_hours",
                                        aggfunc="median", margins=True, margins_name="all")
            print(users.plan.value_counts().to_string())
            summary.round(1)
        """),
    ),
]
