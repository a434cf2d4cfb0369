"""Frame facts the probe collects (`services.kernel_facts`), read in-process: the kernel runs
the same `collect`, which tests/test_critic_service.py checks through a real kernel."""

from __future__ import annotations

import pytest

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


GROUPED = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(3)
k = np.repeat(np.arange(6), 30)             # 6 sites x 30 rows
x = 2 * k + rng.normal(0, 1, 180)           # the sites' levels line up upwards ...
y = 3 * k - 1.5 * (x - 2 * k) + rng.normal(0, 0.5, 180)   # ... each site slopes down
plots = pd.DataFrame({"site": [f"s{i}" for i in k], "x": x, "y": y,
                      "plot_no": np.arange(180), "visit": np.tile(np.arange(3), 60),
                      "rare": np.arange(180) % 90, "depth": rng.normal(5, 1, 180)})
"""


def _groups(ev, line: int = 1) -> dict:
    found = [s for s in ev.samples if s.line == line and s.groups]
    assert found, [(s.call, s.expr, s.groups) for s in ev.samples]
    return found[0].groups


def test_pair_split_within_and_between_the_source_frames_groups() -> None:
    g = _groups(run_and_gather("print(stats.pearsonr(plots.x, plots['y']))", GROUPED))
    site = g["site"]
    assert site["r"] > 0.5 and site["within_r"] < -0.8 and site["between_r"] > 0.9
    assert site["eta2_x"] > 0.7 and site["eta2_y"] > 0.7 and site["n"] == 180
    assert (site["n_groups"], site["pos_groups"], site["neg_groups"]) == (6, 0, 6)
    # an integer column with 3 rows per level is a grouping; floats, identifiers
    # (one row each) and integers with 2 rows per level are not
    assert set(g) == {"site", "visit"} and abs(g["visit"]["eta2_x"]) < 0.05


def test_fits_and_coefficients_are_split_too() -> None:
    ev = run_and_gather("""
print(np.polyfit(plots.x, plots.y, 1))
print(np.polyfit(plots.x, plots.y, 2))
print(plots.x.corr(plots.y), plots[["x", "y"]].corr(), np.corrcoef(plots.x, plots.y))
""", GROUPED)
    calls = {(s.call, s.line) for s in ev.samples if s.groups}
    assert calls == {("numpy.polyfit", 2), ("pandas.Series.corr", 4),
                     ("pandas.DataFrame.corr", 4), ("numpy.corrcoef", 4)}


def test_lambda_of_pipe_and_assigned_columns_are_read_from_their_source() -> None:
    ev = run_and_gather("""
res = (plots.assign(lx=np.log(plots.x + 20), yy=lambda d: d.y * 2)
       .pipe(lambda d: stats.linregress(d.lx, d.yy)))
""", GROUPED)
    assert [s.expr for s in ev.samples] == ["np.log(plots.x + 20)", "plots.y * 2"]
    assert _groups(ev, 3)["site"]["within_r"] < -0.5


def test_aggregated_or_unrelated_samples_are_not_split() -> None:
    ev = run_and_gather("""
means = plots.groupby("site")[["x", "y"]].mean()
print(stats.pearsonr(means.x, means.y))
print(stats.pearsonr(plots.groupby("site").x.mean(), plots.groupby("site").y.mean()))
other = plots.sample(frac=1, random_state=0).reset_index(drop=True)
print(stats.pearsonr(plots.x, other.y))
""", GROUPED)
    assert not any(s.groups for s in ev.samples)


def test_group_split_of_a_large_frame_is_read_on_a_row_sample() -> None:
    import numpy as np
    import pandas as pd

    from services import kernel_facts

    rng = np.random.default_rng(0)
    n = 200_000
    big = pd.DataFrame({"store": rng.choice([f"s{i}" for i in range(150)], n),
                        "week": rng.integers(0, 52, n), "x": rng.normal(size=n),
                        "y": rng.normal(size=n)})
    for c in range(30):
        big[f"f{c}"] = rng.normal(size=n)
    ns = {"big": big}
    # cost is measured by bench/frame_facts_cost.py; here: what is read on a large frame
    found = kernel_facts.group_facts(ns, big.x, big.y, "big.x", "big.y")
    assert set(found["groups"]) == {"store", "week"}
    assert found["groups"]["store"]["n"] == 5000


def test_probe_only_calls_are_not_counted_as_tests() -> None:
    from critics.evidence import Evidence
    from critics.stat_tests import stat_test_of, test_calls

    ev = Evidence(code="import numpy as np\nb = np.polyfit(df.x, df.y, 1)\n"
                       "c = df.x.corr(df.y)\nfrom scipy import stats\nstats.pearsonr(df.x, df.y)")
    assert [full for _, full, _ in test_calls(ev.model)] == ["scipy.stats.pearsonr"]
    assert [stat_test_of(c)[0] for c in ev.model.calls if stat_test_of(c)] == [
        "numpy.polyfit", "pandas.Series.corr", "scipy.stats.pearsonr"]


def test_identifiers_of_a_large_frame_are_counted_over_every_row() -> None:
    # the row sample (100,000) would make 150,000 patients look like 100,000 on 1.5 rows each
    setup = """
        import numpy as np
        import pandas as pd
        rng = np.random.default_rng(0)
        n = 150_000
        big = pd.DataFrame({"patient_id": np.arange(n), "site": rng.integers(0, 40, n),
                            "code": [f"P{i}" for i in range(n)], "sbp": rng.normal(130, 15, n)})
    """
    ev = run_and_gather("ids = big.patient_id", setup)
    f = ev.objects["big"]
    assert f.unique["patient_id"] == 150_000 and f.unique["code"] == 150_000
    assert f.unique["site"] == 40
    assert f.unique["sbp"] <= 100_000  # measurements keep the sample's count (cost)
    assert ev.objects["ids"].unique == {"": 150_000}


NESTED = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(3)
plots = pd.DataFrame({"plot": np.repeat([f"P{i}" for i in range(8)], 12),
                      "fertiliser": np.repeat(["N", "none"] * 4, 12),
                      "block": np.repeat([1, 1, 2, 2, 3, 3, 4, 4], 12),
                      "sex": np.tile(["f", "m"], 48),
                      "yield_g": rng.normal(50, 5, 96)})
"""


def test_nesting_of_grouping_columns_in_coarser_ones() -> None:
    f = run_and_gather("n = len(plots)", NESTED).objects["plots"]
    assert f.nesting["plot"] == {"levels": 8, "rows": 96, "min_rows": 12,
                                 "within": {"fertiliser": 2, "block": 4}}
    assert "sex" not in f.nesting["plot"]["within"]  # crossed with plots, not nested
    assert "block" not in f.nesting  # blocks hold both fertiliser levels
    assert "yield_g" not in f.nesting


def test_nesting_of_a_large_frame_is_read_on_a_row_sample() -> None:
    # cost is measured by bench/frame_facts_cost.py; here: what is read on a large frame
    import numpy as np
    import pandas as pd

    from services.kernel_facts import NEST_ROWS, _nesting

    n = 200_000
    rng = np.random.default_rng(0)
    pond = rng.integers(0, 150, n)
    big = pd.DataFrame({"pond": pond, "farm": pond // 10, "feed": rng.integers(0, 3, n)})
    found = _nesting(big)
    assert found["pond"]["within"] == {"farm": 15}  # ponds nest in farms, feed is crossed
    assert found["pond"]["rows"] <= NEST_ROWS < n  # counted on the evenly spaced sample


TAILS = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(5)
small = pd.DataFrame({"x": [1.0, 2, 2, 3, 4, 5, 9999, 9999, np.nan], "t": list("abcdefghi")})
n = 60_000
load = rng.gamma(3, 20, n).round()
load[::400] = 65535                     # 150 rows, exact
big = pd.DataFrame({"load": load, "z": rng.normal(size=n), "k": rng.integers(0, 5, n)})
s = pd.Series(load)
"""


def test_tails_of_a_short_column_are_exact() -> None:
    f = run_and_gather("m = len(small)", TAILS).objects["small"]
    t = f.tails["x"]
    assert t["top"] == [[9999.0, 2], [5.0, 1], [4.0, 1]]
    assert t["bottom"] == [[1.0, 1], [2.0, 2], [3.0, 1]]
    assert t["q"][1] in (3.0, 4.0) and t["step"] == 1
    assert "t" not in f.tails  # text columns have levels, not tails


def test_tails_of_a_long_column_count_a_set_apart_code_over_every_row() -> None:
    f = run_and_gather("m = len(big)", TAILS).objects["big"]
    top = f.tails["load"]["top"]
    assert top[0] == [65535.0, 150]  # exact, though only every 30th row is sampled
    assert top[1][0] < 65535 / 8 and f.tails["load"]["step"] == 30
    q05, q50, q95 = f.tails["load"]["q"]
    assert 20 < q50 < 80 and q05 < q50 < q95 < 200
    assert f.tails["k"]["top"][0][0] == 4.0 and f.tails["k"]["bottom"][0][0] == 0.0
    z = f.tails["z"]
    assert z["top"][0][0] == f.ranges["z"][1] and z["bottom"][0][0] == f.ranges["z"][0]


def test_tails_of_a_numeric_series_under_the_empty_key() -> None:
    f = run_and_gather("m = len(s)", TAILS).objects["s"]
    assert f.tails[""]["top"][0] == [65535.0, 150]


def test_first_scipy_import_in_a_kernel_does_not_cut_the_samples_short() -> None:
    # A fresh interpreter, as a new kernel is: scipy.stats is not imported yet. Its import
    # (hundreds of ms) must not use up the 25 ms budget and drop the second sample's facts.
    import json
    import subprocess
    import sys
    from pathlib import Path

    script = """
import json, sys
import numpy as np
from services import kernel_facts
assert "scipy.stats" not in sys.modules
ns = {"a": np.arange(200.0) ** 2, "b": np.arange(200.0)}
req = {"names": [], "budget_ms": 25, "samples": [
    {"expr": "a", "call": "ttest_ind", "line": 1, "arg": 0},
    {"expr": "b", "call": "ttest_ind", "line": 1, "arg": 1}]}
print(kernel_facts.collect(ns, req))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120, check=True,
                         cwd=Path(__file__).resolve().parents[1]).stdout
    found = json.loads(out)
    assert not found["truncated"]
    assert [s["expr"] for s in found["samples"]] == ["a", "b"]
    assert all("normal_p" in s for s in found["samples"])


def test_unique_counts_of_a_large_sample_skip_hashing_continuous_floats() -> None:
    import numpy as np
    import pandas as pd

    from services.kernel_facts import PROBE_ROWS, _unique_counts

    n = 3 * PROBE_ROWS
    rng = np.random.default_rng(5)
    frame = pd.DataFrame({"x": rng.normal(size=n),  # continuous: all distinct
                          "score": rng.integers(0, 50, n) / 2,  # a float code: 50 levels
                          "late_repeat": np.r_[rng.normal(size=n - 10), np.zeros(10)],
                          "site": rng.integers(0, 7, n)})
    frame.loc[::100, "x"] = np.nan
    counts = _unique_counts(frame)
    assert counts["x"] == n - len(frame.index[::100])  # the non-missing rows, not hashed
    assert counts["score"] == 50 and counts["site"] == 7  # exact where the probe sees repeats
    # repeats the probe does not see are the approximation's only error: 10 zeros count 10
    assert counts["late_repeat"] == n
    assert frame["late_repeat"].nunique() == n - 9


def test_missing_by_says_in_which_groups_the_missing_values_sit() -> None:
    f = run_and_gather("n = len(lots)", """
import numpy as np
import pandas as pd
rng = np.random.default_rng(9)
lots = pd.DataFrame({"origin": np.repeat(["Sumatra", "Brazil", "Kenya"], [40, 100, 60]),
                     "grade": np.tile(["A", "B"], 100),
                     "moisture": rng.normal(11, 0.6, 200)})
lots.loc[lots.index[:12], "moisture"] = np.nan  # 12 Sumatra lots
lots.loc[lots.index[100], "moisture"] = np.nan  # one Brazil lot
""").objects["lots"]
    assert f.missing["moisture"] == 13
    assert f.missing_by == {"moisture": {"origin": {"Sumatra": 12, "Brazil": 1},
                                         "grade": {"A": 7, "B": 6}}}
    assert f.levels["origin"]["Sumatra"] == 40  # the denominators a rule compares against


def test_fitted_models_carry_the_shape_of_their_residuals() -> None:
    ev = run_and_gather("""
import statsmodels.formula.api as smf
rng = np.random.default_rng(5)
d = pd.DataFrame({"g": np.repeat(["a", "b", "c"], 40)})
d["wait"] = rng.lognormal(1.0, 1.1, 120) * np.repeat([1.0, 1.4, 2.0], 40)
d["score"] = rng.normal(50, 8, 120) + np.repeat([0.0, 2.0, 4.0], 40)
skewed = smf.ols("wait ~ C(g)", data=d).fit()
normal = smf.ols("score ~ C(g)", data=d).fit()
""", SERIES)
    skewed, normal = ev.objects["skewed"].params, ev.objects["normal"].params
    assert skewed["resid_skew"] > 1.5 and skewed["resid_normal_p"] < 0.001
    assert abs(normal["resid_skew"]) < 0.6 and normal["resid_normal_p"] > 0.01


class _Clocks:
    """The two clocks Budget reads, moved by hand: what a loaded machine does to them is
    then the test's to say, not the machine's."""

    def __init__(self) -> None:
        self.cpu = self.wall = 100.0

    def thread_time(self) -> float:
        return self.cpu

    def perf_counter(self) -> float:
        return self.wall


def test_the_budget_counts_cpu_time_so_waiting_for_a_core_cuts_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A kernel on a loaded machine waits for a core; that wait must not use up the budget, or
    # a critique would depend on the machine's load.
    from services import kernel_facts
    from services.kernel_facts import Budget

    clocks = _Clocks()
    monkeypatch.setattr(kernel_facts, "time", clocks)
    over = Budget(0.020)
    clocks.wall += 0.020 * (Budget.WALL_FACTOR - 1)  # waited for a core: no CPU used
    assert not over()
    clocks.cpu += 0.030  # a budget and a half of real work
    clocks.wall += 0.030
    assert over()


def test_the_budget_still_stops_work_that_blocks() -> None:
    import time

    from services.kernel_facts import Budget

    over = Budget(0.005)
    time.sleep(0.005 * Budget.WALL_FACTOR + 0.01)  # past the wall-clock cap
    assert over()


def test_nesting_of_an_identifier_with_hundreds_of_levels() -> None:
    # respondents of a panel: more levels than the pairwise table takes, checked in O(rows)
    import numpy as np
    import pandas as pd

    from services.kernel_facts import NEST_MAX_LEVELS, _nesting

    n = 3 * NEST_MAX_LEVELS
    rng = np.random.default_rng(1)
    person = pd.DataFrame({"pid": [f"P{k:04d}" for k in range(n)],
                           "urban": rng.integers(0, 2, n)})
    long = person.loc[person.index.repeat(4)].reset_index(drop=True)
    long["wave"] = np.tile([1, 2, 3, 4], n)
    long["mode"] = rng.choice(["web", "phone"], len(long))   # varies within a person
    found = _nesting(long)
    assert found["pid"] == {"levels": n, "rows": 4 * n, "min_rows": 4,
                            "within": {"urban": 2}}
    assert "wave" not in found and "mode" not in found["pid"]["within"]
    # unique per row (or about): not a grouping column, no nesting read
    assert "pid" not in _nesting(person.assign(g=rng.integers(0, 3, n)))
