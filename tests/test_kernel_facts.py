"""Frame facts the probe collects (`services.kernel_facts`), read in-process: the kernel runs
the same `collect`, which tests/test_critic_service.py checks through a real kernel."""

from __future__ import annotations

from tests.inprocess_evidence import run_and_gather

SETUP = """
import numpy as np
import pandas as pd
df = pd.DataFrame({"channel": ["Email", "Paid Search", "Social"] * 40,
                   "tier": pd.Categorical(["a", "b"] * 60),
                   "spend": np.arange(120.0) - 10,
                   "user": [f"u{i}" for i in range(120)]})
df.loc[3, "channel"] = None
"""


def test_levels_of_low_cardinality_columns_with_their_rows() -> None:
    f = run_and_gather("n = len(df)", SETUP).objects["df"]
    assert f.levels["channel"] == {"Email": 39, "Paid Search": 40, "Social": 40}
    assert f.levels["tier"] == {"a": 60, "b": 60}
    assert "user" not in f.levels  # 120 distinct values: an identifier, not levels


def test_ranges_of_numeric_columns() -> None:
    f = run_and_gather("n = len(df)", SETUP).objects["df"]
    assert f.ranges == {"spend": [-10.0, 109.0]}


SERIES = """
import numpy as np
import pandas as pd
from scipy import stats
from scipy.signal import lfilter
rng = np.random.default_rng(1)
slow = pd.Series(lfilter([1], [1, -0.9], rng.normal(0, 1, 400)))
noise = pd.Series(rng.normal(0, 1, 400))
blocks = pd.Series(rng.normal(0, 1, 400)).loc[lambda s: (s.index // 50) % 2 == 0]
"""


def test_sample_lag1_autocorrelation_and_contiguous_runs() -> None:
    ev = run_and_gather("print(stats.ttest_ind(slow, noise), stats.ttest_ind(blocks, noise))",
                        SERIES)
    by = {s.expr: s for s in ev.samples}
    assert by["slow"].lag1 > 0.8 and abs(by["noise"].lag1) < 0.15
    assert by["slow"].runs == 1 and by["blocks"].runs == 4  # rows 0-49, 100-149, ...
    sorted_ev = run_and_gather("print(stats.ttest_ind(np.sort(noise.to_numpy()), noise))",
                               SERIES)
    assert all(s.lag1 is None or abs(s.lag1) < 0.15 for s in sorted_ev.samples)


def test_pair_facts_of_a_fit_carried_by_one_point() -> None:
    ev = run_and_gather("""
x = np.array([1.0, 1.2, 0.9, 1.1, 1.3, 0.8, 1.05, 30.0])
y = np.array([5.0, 4.0, 6.0, 5.5, 4.5, 5.2, 4.8, 60.0])
print(stats.linregress(x, y))
""", SERIES)
    s = ev.samples[0]
    assert s.pair_p < 0.001 and s.drop_p > 0.05 and s.cooks_max > 1
    assert s.influential == [30.0, 60.0] and s.leverage_max > 0.9
    assert s.rank_p is not None and s.rank_p > 0.05


def test_small_count_tables_and_chi2_results_carry_expected_counts() -> None:
    ev = run_and_gather("""
obs = np.array([[20, 1], [30, 0], [10, 2]])
frame = pd.DataFrame(obs, columns=["no", "yes"])
res = stats.chi2_contingency(obs)
chi2, p, dof, exp = stats.chi2_contingency(obs)
""", SERIES)
    t = ev.objects["obs"].params["table"]
    assert t["expected_min"] < 1 and t["expected_below5"] == 3 and t["total"] == 63
    assert ev.objects["frame"].params["table"]["expected_below5"] == 3
    assert ev.objects["res"].params["expected"]["below5"] == 3
    assert ev.objects["exp"].params["table"]["min"] < 1


def test_regression_results_carry_residual_autocorrelation() -> None:
    ev = run_and_gather("""
import statsmodels.api as sm
fit = sm.OLS(slow.to_numpy(), np.ones(400)).fit()
""", SERIES)
    p = ev.objects["fit"].params
    assert p["resid_lag1"] > 0.8 and p["nobs"] == 400
