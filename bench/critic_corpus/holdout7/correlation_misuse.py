"""Correlation misuse, holdout7 idioms: a depot's drivers-on-shift versus late deliveries read
as cause and effect (both follow the day's order volume, which the roster is planned from), via
scipy pearsonr and linregress with a 'cut the roster' conclusion; and a tutoring programme's
pre-test score correlated with the pre-to-post gain, whose negative r (regression to the mean
from measurement error shared by the two) is reported as 'weaker students gain most'."""

from textwrap import dedent

from bench.critic_corpus import Case

_DEPOT = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(7701)
n_days = 180
weekday = np.arange(n_days) % 7
orders = (rng.normal(2400, 250, n_days) + 500 * (weekday == 0) - 700 * (weekday == 6)
          + 6 * np.arange(n_days)).round()
# the roster is planned from the order forecast, about one driver per 95 drops
drivers = np.round(orders / 95 + rng.normal(0, 2.0, n_days))
drops_per_driver = orders / drivers
# lateness grows with volume (congestion) and with each driver's workload
late = rng.poisson(orders * 0.01 * np.exp(0.05 * (drops_per_driver - 95)) * orders / 2400)
daily = pd.DataFrame({"orders": orders, "drivers_on_shift": drivers, "late_deliveries": late})
"""

_TUTORING = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(7702)
n = 420
ability = rng.normal(62, 11, n)
# every tutored student gains about 4 points; each sitting adds its own measurement error
scores = pd.DataFrame({
    "student": np.arange(n),
    "pre": (ability + rng.normal(0, 6, n)).round(),
    "post": (ability + 4 + rng.normal(0, 6, n)).round(),
})
"""

CASES: list[Case] = [
    Case(
        id="corr-h7-drivers-on-shift-cause-late-deliveries",
        family="correlation_misuse",
        twin="corr-h7-drivers-on-shift-cause-late-deliveries-sound",
        split="holdout7",
        setup=_DEPOT,
        note="Drivers and late deliveries both rise with the day's order volume; the positive r "
        "and slope are read as 'each extra driver causes late drops', ignoring the confounder.",
        code=dedent("""\
            from scipy import stats

            r, p = stats.pearsonr(daily.drivers_on_shift, daily.late_deliveries)
            fit = stats.linregress(daily.drivers_on_shift, daily.late_deliveries)
            print(f"r = {r:.2f} (p = {p:.1e}) between drivers rostered and late deliveries")
            print(f"each extra driver on shift adds {fit.slope:.2f} late deliveries a day -> "
                  f"trimming the roster by 3 drivers should save ~{3 * fit.slope:.0f} a day")
        """),
    ),
    Case(
        id="corr-h7-drivers-on-shift-cause-late-deliveries-sound",
        family=None,
        twin="corr-h7-drivers-on-shift-cause-late-deliveries",
        split="holdout7",
        setup=_DEPOT,
        note="Order volume, which drives both roster and lateness, is adjusted for in a Poisson "
        "GLM; the driver effect is reported as an adjusted association, not a raw correlation.",
        code=dedent("""\
            import statsmodels.api as sm
            import statsmodels.formula.api as smf

            print(daily.corr().round(2))
            glm = smf.glm("late_deliveries ~ drivers_on_shift + np.log(orders)", data=daily,
                          family=sm.families.Poisson()).fit()
            rr = np.exp(glm.params["drivers_on_shift"])
            lo, hi = np.exp(glm.conf_int().loc["drivers_on_shift"])
            print(f"at a given order volume, one more driver is associated with late deliveries "
                  f"x{rr:.3f} (95% CI {lo:.3f}-{hi:.3f})")
        """),
    ),
    Case(
        id="corr-h7-pretest-vs-gain-regression-to-mean",
        family="correlation_misuse",
        twin="corr-h7-pretest-vs-gain-regression-to-mean-sound",
        split="holdout7",
        setup=_TUTORING,
        note="Pre-test is correlated with (post - pre), which contains minus the pre-test's own "
        "error: regression to the mean gives a negative r though every student gained alike.",
        code=dedent("""\
            from scipy import stats

            scores["gain"] = scores.post - scores.pre
            r, p = stats.pearsonr(scores.pre, scores.gain)
            print(f"mean gain = {scores.gain.mean():.1f} points")
            print(f"corr(pre-test, gain) = {r:.2f}, p = {p:.1e}")
            print("the programme helps the weakest students most" if r < 0 and p < 0.05
                  else "gains do not depend on starting level")
        """),
    ),
    Case(
        id="corr-h7-pretest-vs-gain-regression-to-mean-sound",
        family=None,
        twin="corr-h7-pretest-vs-gain-regression-to-mean",
        split="holdout7",
        setup=_TUTORING,
        note="Oldham's method: the gain is correlated with the mean of pre and post, which "
        "removes the shared-error artefact of correlating the gain with the pre-test.",
        code=dedent("""\
            from scipy import stats

            scores["gain"] = scores.post - scores.pre
            scores["level"] = (scores.pre + scores.post) / 2
            r, p = stats.pearsonr(scores.level, scores.gain)
            print(f"mean gain = {scores.gain.mean():.1f} points")
            print(f"Oldham corr(mean of pre/post, gain) = {r:.2f}, p = {p:.2f}")
            print("the programme helps the weakest students most" if r < 0 and p < 0.05
                  else "gains do not depend on starting level")
        """),
    ),
]
