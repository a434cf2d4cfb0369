"""data_loss: rows silently dropped (missing values, failed runs, inner merges) before a
summary, quantified from the kernel's facts, each with a sound twin (the count reported,
imputation, a NaN-free frame, a plain subgroup)."""

from __future__ import annotations

from critics.evidence import Evidence
from critics.findings import Finding
from critics.rules import data_loss as dl
from critics.rules import rules_of
from tests.inprocess_evidence import evidence, run_and_gather

SETUP = """
import numpy as np, pandas as pd
from scipy import stats
import statsmodels.formula.api as smf
rng = np.random.default_rng(0)
n = 200
df = pd.DataFrame({"g": rng.choice(["a", "b"], n), "x": rng.normal(size=n),
                   "y": rng.normal(size=n)})
df.loc[:59, "x"] = np.nan                      # 30% missing in x
few = df.copy()
few.loc[:, "x"] = few["x"].fillna(0.0)
few.loc[:2, "x"] = np.nan                      # 1.5% missing
some = df.copy()
some.loc[:, "x"] = some["x"].fillna(0.0)
some.loc[:9, "x"] = np.nan                     # 5% missing
full = pd.DataFrame({"g": rng.choice(["a", "b"], n), "x": rng.normal(size=n)})
runs = pd.DataFrame({"cond": rng.choice(["A", "B"], n), "time": rng.gamma(2.0, size=n),
                     "status": rng.choice(["ok", "failed", "timeout"], n, p=[.7, .2, .1]),
                     "failed": rng.random(n) < 0.25, "exit_code": rng.choice([0, 1], n, p=[.8, .2]),
                     "split": rng.choice(["train", "valid"], n)})
raw = pd.DataFrame({"id": range(n),
                    "v": [str(round(v, 3)) if i % 4 else "n/a"
                          for i, v in enumerate(rng.normal(size=n))]})
people = pd.DataFrame({"id": range(n), "x": rng.normal(size=n)})
sites = pd.DataFrame({"id": range(0, n, 2), "site": rng.choice(["s1", "s2"], n // 2)})
sites_all = pd.DataFrame({"id": range(n), "site": rng.choice(["s1", "s2"], n)})
arr = rng.normal(size=n)
arr[:40] = np.nan
"""

RULES = rules_of(dl)
DROPNA = "data_loss.silent_dropna"
FAILED = "data_loss.failed_rows_filtered"
MERGE = "data_loss.inner_merge_loss"
GROUPBY_NAN = "data_loss.groupby_drops_nan_keys"
BAD_LINES = "data_loss.bad_lines_skipped"


def findings(ev: Evidence, rule_id: str | None = None) -> list[Finding]:
    out = [f for r in RULES for f in r.check(ev)]
    return [f for f in out if rule_id is None or f.rule_id == rule_id]


def run(code: str, setup: str = SETUP) -> Evidence:
    return run_and_gather(code, setup)


def one(ev: Evidence, rule_id: str) -> Finding:
    found = findings(ev, rule_id)
    assert len(found) == 1, [(f.rule_id, f.explanation) for f in findings(ev)]
    return found[0]


def quiet(ev: Evidence) -> None:
    found = findings(ev)
    assert not found, [(f.rule_id, f.severity, f.explanation) for f in found]


def test_rule_ids_are_stable() -> None:
    assert {r.id for r in RULES} == {DROPNA, FAILED, MERGE, GROUPBY_NAN, BAD_LINES}


# -- missing values ----------------------------------------------------------------------------


def test_in_place_dropna_before_a_groupby_mean() -> None:
    ev = run("""
        df = df.dropna()
        df.groupby("g").x.mean()
    """)
    f = one(ev, DROPNA)
    assert f.severity == "high" and f.confidence >= 0.8 and not f.is_blocking(0.5)
    assert f.evidence["values"] == {"rows_before": 200, "rows_after": 140,
                                    "fraction_lost": 0.3}
    assert f.lines == [2, 3]


def test_dropna_inplace_keyword() -> None:
    ev = run("""
        df.dropna(inplace=True)
        print(df.describe())
    """)
    assert one(ev, DROPNA).severity == "high"


def test_named_clean_frame_then_describe() -> None:
    ev = run("""
        clean = df.dropna(subset=["x"])
        clean.describe()
    """)
    f = one(ev, DROPNA)
    assert f.severity == "high" and "60 of 200" in f.explanation


def test_notna_mask_in_place_then_median() -> None:
    ev = run("""
        df = df[df["x"].notna()]
        print(df.x.median())
    """)
    assert one(ev, DROPNA).severity == "high"


def test_mask_built_a_line_earlier() -> None:
    ev = run("""
        missing = df.x.isna()
        kept = df[~missing]
        print(stats.ttest_ind(kept[kept.g == "a"].y, kept[kept.g == "b"].y))
    """)
    assert one(ev, DROPNA).severity == "high"


def test_inline_dropna_in_a_chain_uses_the_nan_counts() -> None:
    ev = run("""
        print(df.dropna().groupby("g").y.mean())
    """)
    f = one(ev, DROPNA)
    assert f.severity == "high" and "at least" in f.explanation


def test_numpy_nan_filter_then_mean() -> None:
    ev = run("""
        arr = arr[~np.isnan(arr)]
        print(f"mean = {arr.mean():.3f}")
    """)
    assert one(ev, DROPNA).severity == "high"


def test_helper_function_that_drops_rows() -> None:
    ev = run("""
        def clean(d):
            return d.dropna()
        c = clean(df)
        print(c.x.mean(), c.y.std())
    """)
    f = one(ev, DROPNA)
    assert f.severity == "high" and "clean()" in f.explanation


def test_coerce_then_a_nan_skipping_mean() -> None:
    ev = run("""
        raw["v"] = pd.to_numeric(raw["v"], errors="coerce")
        print("mean v:", raw["v"].mean())
    """)
    f = one(ev, DROPNA)
    assert f.severity == "high" and "coerce" in f.explanation


def test_coerce_then_dropna_cannot_be_quantified_but_is_flagged() -> None:
    ev = run("""
        raw["v"] = pd.to_numeric(raw["v"], errors="coerce")
        raw = raw.dropna()
        print(raw.v.mean())
    """)
    f = one(ev, DROPNA)
    assert f.severity in ("medium", "high") and "coerce" in f.explanation


def test_dropna_then_a_model_fit_is_capped_at_medium() -> None:
    ev = run("""
        df = df.dropna()
        model = smf.ols("y ~ x", data=df).fit()
    """)
    f = one(ev, DROPNA)
    assert f.severity == "medium"


def test_without_facts_a_drop_before_a_summary_is_medium() -> None:
    ev = evidence("""
        data = data.dropna()
        data.groupby("site").value.mean()
    """)
    f = one(ev, DROPNA)
    assert f.severity == "medium" and f.confidence < 0.6


def test_large_drop_without_a_summary_in_the_cell_is_medium() -> None:
    ev = run("""
        df = df.dropna()
        df.head()
    """)
    assert one(ev, DROPNA).severity == "medium"


def test_a_few_percent_lost_is_low() -> None:
    ev = run("""
        some = some.dropna()
        print(some.x.mean())
    """)
    assert one(ev, DROPNA).severity == "low"


def test_missingness_shown_in_an_earlier_cell_downgrades() -> None:
    ev = run("""
        df = df.dropna()
        print(df.groupby("g").x.mean())
    """, SETUP + "\nmissing_summary = df.isna().sum()\n")
    assert one(ev, DROPNA).severity == "medium"


def test_reported_drop_counts_are_sound() -> None:
    for code in (
        """
        n0 = len(df)
        df = df.dropna()
        print(f"dropped {n0 - len(df)} of {n0} rows")
        df.groupby("g").x.mean()
        """,
        """
        print(df.isna().sum())
        clean = df.dropna()
        print(clean.groupby("g").x.mean())
        """,
        """
        before = df.shape[0]
        df = df.dropna(subset=["x"])
        assert len(df) > 0.5 * before
        df.x.mean()
        """,
        """
        clean = df.dropna()
        print("kept", len(clean), "rows")
        print(clean.x.mean())
        """,
    ):
        quiet(run(code))


def test_dropna_on_a_frame_without_nan_is_sound() -> None:
    quiet(run("""
        full = full.dropna()
        print(full.groupby("g").x.mean())
    """))


def test_tiny_loss_is_sound() -> None:
    quiet(run("""
        few = few.dropna()
        print(few.x.mean())
    """))


def test_imputation_is_sound() -> None:
    quiet(run("""
        n_missing = df.x.isna().sum()
        df["x"] = df["x"].fillna(df["x"].median())
        print(f"imputed {n_missing} values; mean x = {df.x.mean():.2f}")
    """))


def test_dropping_columns_or_subgroups_is_sound() -> None:
    quiet(run("""
        wide = df.dropna(axis=1)
        a = df[df.g == "a"]
        print(a.y.mean(), wide.shape)
    """))


# -- failed runs -------------------------------------------------------------------------------


def test_status_filter_then_a_t_test() -> None:
    ev = run("""
        ok = runs[runs.status == "ok"]
        print(stats.ttest_ind(ok[ok.cond == "A"].time, ok[ok.cond == "B"].time))
    """)
    f = one(ev, FAILED)
    assert f.severity == "high" and f.confidence >= 0.8
    assert "succeeded" in f.explanation


def test_query_on_status() -> None:
    ev = run("""
        good = runs.query("status == 'ok'")
        good.groupby("cond").time.agg(["mean", "std"])
    """)
    assert one(ev, FAILED).severity == "high"


def test_boolean_failed_flag_in_place() -> None:
    ev = run("""
        runs = runs[~runs.failed]
        print(runs.groupby("cond").time.median())
    """)
    assert one(ev, FAILED).severity == "high"


def test_exit_code_filter_with_loc() -> None:
    ev = run("""
        done = runs.loc[runs.exit_code == 0]
        print(done.time.mean())
    """)
    assert one(ev, FAILED).severity == "high"


def test_isin_success_values() -> None:
    ev = run("""
        finished = runs[runs.status.isin(["ok"])]
        print(finished.groupby("cond").time.mean())
    """)
    assert one(ev, FAILED).severity == "high"


def test_status_mask_built_with_eq() -> None:
    ev = run("""
        ok_mask = runs["status"].eq("ok")
        ok = runs[ok_mask]
        print(ok.groupby("cond").time.mean())
    """)
    assert one(ev, FAILED).severity == "high"


def test_frame_created_in_the_same_cell_cannot_be_quantified() -> None:
    ev = run("""
        data = runs.copy()
        data = data[data.status == "ok"]
        print(data.time.mean())
    """)
    f = one(ev, FAILED)
    assert f.severity == "medium" and "could not be read" in f.explanation


def test_reported_failures_are_sound() -> None:
    for code in (
        """
        print(runs.status.value_counts())
        ok = runs[runs.status == "ok"]
        print(ok.groupby("cond").time.mean())
        """,
        """
        ok = runs[runs.status == "ok"]
        n_failed = len(runs) - len(ok)
        print(f"{n_failed} runs failed; mean time {ok.time.mean():.2f}")
        """,
    ):
        quiet(run(code))


def test_ordinary_subsets_are_not_failure_filters() -> None:
    quiet(run("""
        a = runs[runs.cond == "A"]
        val = runs[runs.split == "valid"]
        print(a.time.mean(), val.time.mean())
    """))


# -- merges ------------------------------------------------------------------------------------


def test_inner_merge_losing_half_the_rows() -> None:
    ev = run("""
        merged = people.merge(sites, on="id")
        print(merged.groupby("site").x.mean())
    """)
    f = one(ev, MERGE)
    assert f.severity == "high" and "100 of 200" in f.explanation


def test_pd_merge_function_form() -> None:
    ev = run("""
        merged = pd.merge(people, sites, on="id", how="inner")
        print(merged.groupby("site").x.mean())
    """)
    assert one(ev, MERGE).severity == "high"


def test_sound_merges() -> None:
    for code in (
        """
        merged = people.merge(sites, on="id", how="left")
        print(merged.groupby("site").x.mean())
        """,
        """
        merged = people.merge(sites_all, on="id")
        print(merged.groupby("site").x.mean())
        """,
        """
        merged = people.merge(sites, on="id", how="outer", indicator=True)
        print(merged._merge.value_counts())
        """,
        """
        merged = people.merge(sites, on="id")
        print(f"{len(people) - len(merged)} people without a site")
        print(merged.groupby("site").x.mean())
        """,
    ):
        quiet(run(code))


# -- robustness --------------------------------------------------------------------------------


def test_odd_code_does_not_raise() -> None:
    for code in ("def broken(:\n    pass", "", "x[", "df[df.a.notna()]",
                 "lambda d: d.dropna()", "for d in frames:\n    d.dropna(inplace=True)",
                 "pd.merge()", "a.merge()", "q.query(expr)"):
        findings(evidence(code))


def test_rules_are_fast() -> None:
    import time

    base = run("""
        n0 = len(df)
        clean = df.dropna()
        ok = runs[runs.status == "ok"]
        merged = people.merge(sites_all, on="id")
        print(clean.x.mean(), ok.time.mean(), merged.x.mean(), n0)
    """ * 8)
    times = []
    for _ in range(5):
        ev = Evidence.from_dict(base.to_dict())
        _ = ev.model.calls, ev.model.assignments, ev.model.reported_names  # warm-up
        t0 = time.perf_counter()
        findings(ev)
        times.append(time.perf_counter() - t0)
    assert min(times) < 0.005


# -- groupby keys with NaN -------------------------------------------------------------------

TEAMS = """
import numpy as np, pandas as pd
rng = np.random.default_rng(5)
n = 400
tickets = pd.DataFrame({"team": rng.choice(["north", "south", "east"], n),
                        "amount": rng.gamma(2.0, 50.0, n), "hours": rng.normal(8, 2, n)})
tickets.loc[rng.random(n) < 0.25, "team"] = None          # ~25% without a team
few_nan = tickets.copy()
few_nan["team"] = few_nan["team"].fillna("north")
few_nan.loc[:11, "team"] = None                            # 3% without a team
"""


def test_groupby_series_key_with_many_nan_keys_summed_is_high() -> None:
    ev = run_and_gather("""
        revenue = tickets.groupby(tickets["team"])["amount"].sum()
        print((revenue / revenue.sum()).round(3))
    """, TEAMS)
    f = one(ev, GROUPBY_NAN)
    assert f.severity == "high" and f.confidence >= 0.8
    assert f.evidence["values"]["nan_keys"] > 50


def test_pivot_table_count_with_nan_keys_is_flagged() -> None:
    ev = run_and_gather("""
        table = tickets.pivot_table(index="team", values="hours", aggfunc="count")
        table
    """, TEAMS)
    assert one(ev, GROUPBY_NAN).severity == "high"


def test_small_share_of_nan_keys_is_medium() -> None:
    ev = run_and_gather("""
        sizes = few_nan.groupby(["team"]).size()
        print(sizes / sizes.sum())
    """, TEAMS)
    assert one(ev, GROUPBY_NAN).severity == "medium"


def test_sound_groupby_twins_are_quiet() -> None:
    for code in (
        """
        print(tickets.groupby("team", dropna=False)["amount"].sum())
        """,
        """
        tickets["team"] = tickets["team"].fillna("unassigned")
        print(tickets.groupby("team").amount.sum())
        """,
        """
        print(tickets.groupby("team").hours.mean())   # per-group means only
        """,
        """
        print(f"{tickets.team.isna().sum()} tickets have no team")
        print(tickets.groupby("team").amount.sum())
        """,
    ):
        assert not findings(run_and_gather(code, TEAMS), GROUPBY_NAN), code


# -- malformed lines skipped -------------------------------------------------------------------

RAW_TSV = """
import io
import numpy as np, pandas as pd
rows = ["sensor\\treading"] + [f"s{i % 5}\\t{i * 0.5}" for i in range(300)]
rows[17] += "\\textra\\tfields"
rows[230] += "\\tnote"
raw_tsv = "\\n".join(rows)
"""


def test_read_table_skip_then_summary_is_high() -> None:
    ev = run_and_gather("""
        readings = pd.read_table(io.StringIO(raw_tsv), on_bad_lines="skip")
        print(readings.groupby("sensor").reading.mean())
    """, RAW_TSV)
    f = one(ev, BAD_LINES)
    assert f.severity == "high"


def test_legacy_error_bad_lines_false_code_only() -> None:
    ev = evidence("""
        import pandas as pd
        df = pd.read_csv("export.csv", error_bad_lines=False, warn_bad_lines=False)
        df.describe()
    """)
    assert one(ev, BAD_LINES).severity in ("medium", "high")


def test_genfromtxt_invalid_raise_false_is_low() -> None:
    ev = evidence("""
        import numpy as np
        data = np.genfromtxt("log.csv", delimiter=",", invalid_raise=False)
        print(data.mean(axis=0))
    """)
    assert one(ev, BAD_LINES).severity == "low"


def test_sound_bad_line_handling_is_quiet() -> None:
    for code in (
        """
        bad = []
        readings = pd.read_csv(io.StringIO(raw_tsv), sep="\\t", engine="python",
                               on_bad_lines=lambda fields: bad.append(fields) or None)
        print(len(bad), "malformed lines set aside")
        print(readings.reading.mean())
        """,
        """
        n_raw = len(raw_tsv.splitlines()) - 1
        readings = pd.read_table(io.StringIO(raw_tsv), on_bad_lines="skip")
        print(f"parsed {len(readings)} of {n_raw} lines")
        print(readings.reading.mean())
        """,
        """
        readings = pd.read_table(io.StringIO(raw_tsv.replace("\\textra\\tfields", "")
                                             .replace("\\tnote", "")))
        print(readings.reading.mean())
        """,
    ):
        assert not findings(run_and_gather(code, RAW_TSV), BAD_LINES), code
