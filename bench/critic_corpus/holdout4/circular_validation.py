"""Circular validation, holdout4 idioms: stacking weights for twelve demand forecasts fitted
by least squares on the test weeks and then scored on those same weeks, and sensor channels
picked for the largest defect difference and then t-tested on the same production batches."""

from textwrap import dedent

from bench.critic_corpus import Case

_FORECASTS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6262)
n_weeks, n_models = 160, 12
demand = 500 + 60 * np.sin(np.arange(n_weeks) * 2 * np.pi / 52) + rng.normal(0, 40, n_weeks)
# twelve base forecasters (price-elasticity, seasonal naive, ...): each = demand + its own noise
base = pd.DataFrame({f"model_{k}": demand + rng.normal(0, 55, n_weeks)
                     for k in range(n_models)})
valid_weeks, test_weeks = slice(60, 120), slice(120, 160)
"""

_LINE = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(1212)
n_batches, n_channels = 60, 250
sensors = pd.DataFrame(rng.normal(0, 1, (n_batches, n_channels)),
                       columns=[f"ch{c:03d}" for c in range(n_channels)])
defective = np.repeat([0, 1], n_batches // 2)
rng.shuffle(defective)
# no channel differs between defective and good batches in this line's history
"""

CASES: list[Case] = [
    Case(
        id="circular-stacking-weights-on-test-demand",
        family="circular_validation",
        twin="circular-stacking-weights-on-test-demand-sound",
        split="holdout4",
        setup=_FORECASTS,
        note="Blend weights for twelve forecasts are solved by lstsq on the 40 test weeks and "
        "the blend's RMSE is then reported on those same 40 weeks.",
        code=dedent("""\
            def rmse(a, b):
                return float(np.sqrt(np.mean((np.asarray(a) - np.asarray(b)) ** 2)))


            X_test = np.column_stack([np.ones(40), base.iloc[test_weeks].to_numpy()])
            weights, *_ = np.linalg.lstsq(X_test, demand[test_weeks], rcond=None)
            blend = X_test @ weights
            report = {name: rmse(base[name].iloc[test_weeks], demand[test_weeks])
                      for name in base.columns[:3]}
            report["simple average"] = rmse(base.iloc[test_weeks].mean(axis=1), demand[test_weeks])
            report["stacked blend"] = rmse(blend, demand[test_weeks])
            pd.Series(report).round(1)
        """),
    ),
    Case(
        id="circular-stacking-weights-on-test-demand-sound",
        family=None,
        twin="circular-stacking-weights-on-test-demand",
        split="holdout4",
        setup=_FORECASTS,
        note="Blend weights are solved on the earlier validation weeks and applied unchanged "
        "to the 40 later test weeks, where the blend is scored.",
        code=dedent("""\
            def rmse(a, b):
                return float(np.sqrt(np.mean((np.asarray(a) - np.asarray(b)) ** 2)))


            def design(rows):
                return np.column_stack([np.ones(len(rows)), rows.to_numpy()])


            weights, *_ = np.linalg.lstsq(design(base.iloc[valid_weeks]), demand[valid_weeks],
                                          rcond=None)
            blend = design(base.iloc[test_weeks]) @ weights
            report = {name: rmse(base[name].iloc[test_weeks], demand[test_weeks])
                      for name in base.columns[:3]}
            report["simple average"] = rmse(base.iloc[test_weeks].mean(axis=1), demand[test_weeks])
            report["stacked blend"] = rmse(blend, demand[test_weeks])
            pd.Series(report).round(1)
        """),
    ),
    Case(
        id="circular-channel-selection-then-ttest-qa",
        family="circular_validation",
        twin="circular-channel-selection-then-ttest-qa-sound",
        split="holdout4",
        setup=_LINE,
        note="The ten channels with the largest defective-vs-good gap are chosen and then "
        "t-tested on the same 60 batches, so the 'signature' is significant by construction.",
        code=dedent("""\
            from scipy import stats

            gap = sensors[defective == 1].mean() - sensors[defective == 0].mean()
            signature = gap.abs().nlargest(10).index
            score = (sensors[signature] * np.sign(gap[signature])).mean(axis=1)
            t, p = stats.ttest_ind(score[defective == 1], score[defective == 0])
            print("defect signature channels:", list(signature))
            print(f"signature score, defective vs good batches: t = {t:.2f}, p = {p:.2g}")
        """),
    ),
    Case(
        id="circular-channel-selection-then-ttest-qa-sound",
        family=None,
        twin="circular-channel-selection-then-ttest-qa",
        split="holdout4",
        setup=_LINE,
        note="Channels are chosen on the first 30 batches and the signature is t-tested on "
        "the other 30, which played no part in choosing it.",
        code=dedent("""\
            from scipy import stats

            discover, confirm = np.arange(60) < 30, np.arange(60) >= 30
            d_sens, d_def = sensors[discover], defective[discover]
            gap = d_sens[d_def == 1].mean() - d_sens[d_def == 0].mean()
            signature = gap.abs().nlargest(10).index
            c_sens, c_def = sensors[confirm], defective[confirm]
            score = (c_sens[signature] * np.sign(gap[signature])).mean(axis=1)
            t, p = stats.ttest_ind(score[c_def == 1], score[c_def == 0])
            print("defect signature channels (discovery half):", list(signature))
            print(f"signature score on the confirmation half: t = {t:.2f}, p = {p:.2g}")
        """),
    ),
]
