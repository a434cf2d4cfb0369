"""Pseudoreplication, holdout5 idioms: a smart-thermostat trial randomised by home (10 vs 10)
analysed with ttest_ind on 13,440 hourly meter readings gathered by groupby.apply, and a
numpy-only Welch t statistic over 24 vs 24 qPCR wells that are technical replicates of three
cultures per condition."""

from textwrap import dedent

from bench.critic_corpus import Case

_HOURLY = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(5656)
n_homes, hours = 20, 24 * 28
home_level = rng.lognormal(np.log(0.9), 0.35, n_homes)          # kWh/h, homes differ a lot
arm = np.repeat(["thermostat", "control"], n_homes // 2)
effect = np.where(arm == "thermostat", 0.96, 1.0)                 # a 4 % saving, if any
hour_of_day = np.tile(np.arange(24), 28)
profile = 1 + 0.45 * np.sin(2 * np.pi * (hour_of_day - 7) / 24)
kwh = (home_level[:, None] * effect[:, None] * profile[None, :]
       * rng.lognormal(0, 0.25, (n_homes, hours)))
hourly = pd.DataFrame({
    "home": np.repeat([f"H{i:02d}" for i in range(n_homes)], hours),
    "arm": np.repeat(arm, hours),
    "hour": np.tile(hour_of_day, n_homes),
    "kwh": kwh.ravel().round(3),
})
"""

_QPCR = """\
import numpy as np

rng = np.random.default_rng(4751)
wells_per_culture = 8
# three independent cultures per condition; each culture's cDNA is pipetted into 8 wells
culture_dct = {"siRNA": rng.normal(6.1, 0.6, 3), "scrambled": rng.normal(5.4, 0.6, 3)}
dct = {cond: np.repeat(means, wells_per_culture) + rng.normal(0, 0.15, 3 * wells_per_culture)
       for cond, means in culture_dct.items()}
culture_id = np.repeat([0, 1, 2], wells_per_culture)
"""

CASES: list[Case] = [
    Case(
        id="pseudorep-hourly-readings-thermostat-homes",
        family="pseudoreplication",
        twin="pseudorep-hourly-readings-thermostat-homes-sound",
        split="holdout5",
        setup=_HOURLY,
        note="Thermostats were assigned to 10 of 20 homes, but ttest_ind treats 6,720 hourly "
        "readings per arm as independent; home-to-home differences masquerade as a saving.",
        code=dedent("""\
            from scipy.stats import ttest_ind

            readings = hourly.groupby("arm")["kwh"].apply(np.asarray)
            res = ttest_ind(readings["thermostat"], readings["control"])
            saving = 1 - readings["thermostat"].mean() / readings["control"].mean()
            print(f"readings per arm: {len(readings['thermostat'])} vs {len(readings['control'])}")
            print(f"thermostat saving: {saving:.1%} "
                  f"(t = {res.statistic:.1f}, p = {res.pvalue:.2g})")
        """),
    ),
    Case(
        id="pseudorep-hourly-readings-thermostat-homes-sound",
        family=None,
        twin="pseudorep-hourly-readings-thermostat-homes",
        split="holdout5",
        setup=_HOURLY,
        note="Readings are averaged within each home first (the randomised unit), and the two "
        "arms are compared with a Welch t-test on 10 vs 10 home means.",
        code=dedent("""\
            from scipy.stats import ttest_ind

            per_home = hourly.groupby(["arm", "home"])["kwh"].mean()
            res = ttest_ind(per_home["thermostat"], per_home["control"], equal_var=False)
            saving = 1 - per_home["thermostat"].mean() / per_home["control"].mean()
            print(f"homes per arm: {len(per_home['thermostat'])} vs {len(per_home['control'])}")
            print(f"thermostat saving: {saving:.1%} "
                  f"(t = {res.statistic:.1f}, p = {res.pvalue:.2g})")
        """),
    ),
    Case(
        id="pseudorep-qpcr-technical-wells",
        family="pseudoreplication",
        twin="pseudorep-qpcr-technical-wells-sound",
        split="holdout5",
        setup=_QPCR,
        note="The 24 wells per condition are technical replicates of only 3 cultures; a t-test "
        "on wells (tens of df) measures pipetting noise, not culture-to-culture variation.",
        code=dedent("""\
            from scipy import stats

            a, b = dct["siRNA"], dct["scrambled"]
            se = np.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
            t = (a.mean() - b.mean()) / se
            df = se**4 / ((a.var(ddof=1) / a.size) ** 2 / (a.size - 1)
                          + (b.var(ddof=1) / b.size) ** 2 / (b.size - 1))
            p = 2 * stats.t.sf(abs(t), df)
            print(f"ddCt = {a.mean() - b.mean():.2f} "
                  f"(fold change {2 ** -(a.mean() - b.mean()):.2f})")
            print(f"Welch t = {t:.2f}, df = {df:.1f}, p = {p:.2g} "
                  f"(n = {a.size} vs {b.size} wells)")
        """),
    ),
    Case(
        id="pseudorep-qpcr-technical-wells-sound",
        family=None,
        twin="pseudorep-qpcr-technical-wells",
        split="holdout5",
        setup=_QPCR,
        note="Wells are averaged within each culture first, so the Welch t-test compares the 3 "
        "vs 3 biological replicates.",
        code=dedent("""\
            from scipy import stats

            a = np.array([dct["siRNA"][culture_id == c].mean() for c in range(3)])
            b = np.array([dct["scrambled"][culture_id == c].mean() for c in range(3)])
            se = np.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
            t = (a.mean() - b.mean()) / se
            df = se**4 / ((a.var(ddof=1) / a.size) ** 2 / (a.size - 1)
                          + (b.var(ddof=1) / b.size) ** 2 / (b.size - 1))
            p = 2 * stats.t.sf(abs(t), df)
            print(f"ddCt = {a.mean() - b.mean():.2f} "
                  f"(fold change {2 ** -(a.mean() - b.mean()):.2f})")
            print(f"Welch t = {t:.2f}, df = {df:.1f}, p = {p:.2g} "
                  f"(n = {a.size} vs {b.size} cultures)")
        """),
    ),
]
