"""Unseeded randomness, holdout8 idiom: a bootstrap confidence interval for a speech-therapy
improvement built from sklearn.utils.resample in a list comprehension without a random_state."""

from textwrap import dedent

from bench.critic_corpus import Case

_ARTIC = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(8110)
n_children = 26
pre = rng.normal(62, 12, n_children).clip(20, 100)
# percent consonants correct before and after a 10-week articulation programme
therapy = pd.DataFrame({
    "child": [f"C{i:02d}" for i in range(n_children)],
    "pcc_pre": pre.round(1),
    "pcc_post": (pre + rng.gamma(2.0, 2.5, n_children) - 1.5).clip(20, 100).round(1),
})
"""

CASES: list[Case] = [
    Case(
        id="unseeded-randomness-h8-articulation-bootstrap-ci",
        family="unseeded_randomness",
        twin="unseeded-randomness-h8-articulation-bootstrap-ci-sound",
        split="holdout8",
        setup=_ARTIC,
        note="resample() is called without random_state, so the bootstrap CI reported for the "
        "mean PCC gain changes every time the notebook is rerun.",
        code=dedent("""\
            from sklearn.utils import resample

            gain = (therapy.pcc_post - therapy.pcc_pre).to_numpy()
            boot = np.array([resample(gain).mean() for _ in range(2000)])
            lo, hi = np.percentile(boot, [2.5, 97.5])
            print(f"mean PCC gain {gain.mean():.2f} points, 95% bootstrap CI {lo:.3f} to {hi:.3f}")
        """),
    ),
    Case(
        id="unseeded-randomness-h8-articulation-bootstrap-ci-sound",
        family=None,
        twin="unseeded-randomness-h8-articulation-bootstrap-ci",
        split="holdout8",
        setup=_ARTIC,
        note="The bootstrap draws come from a seeded RandomState passed to resample(), so the "
        "reported CI is reproducible.",
        code=dedent("""\
            from sklearn.utils import resample

            gain = (therapy.pcc_post - therapy.pcc_pre).to_numpy()
            rs = np.random.RandomState(2024)
            boot = np.array([resample(gain, random_state=rs).mean() for _ in range(2000)])
            lo, hi = np.percentile(boot, [2.5, 97.5])
            print(f"mean PCC gain {gain.mean():.2f} points, 95% bootstrap CI {lo:.3f} to {hi:.3f}")
        """),
    ),
]
