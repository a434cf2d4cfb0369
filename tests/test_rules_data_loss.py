"""data_loss: rows silently dropped (missing values, failed runs, inner merges) before a
summary, quantified from the kernel's facts, each with a sound twin (the count reported,
imputation, a NaN-free frame, a plain subgroup)."""

from __future__ import annotations

from critics.findings import Finding
from critics.rules import data_loss as dl
from critics.rules import rules_of
from tests import rule_helpers
from tests.inprocess_evidence import run_and_gather
from tests.rule_helpers import check, code_only, one, quiet, silent

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
DEDUPE = "data_loss.dedupe_wrong_key"
LOG_ZERO = "data_loss.log_of_zero_dropped"
NAN_FILTER = "data_loss.nan_comparison_filter"
NAN_AGG = "data_loss.nan_skipping_aggregate"
SPELLINGS = "data_loss.filter_misses_spellings"
BINS = "data_loss.bins_exclude_values"
FORMULA = "data_loss.formula_drops_missing"


def run(code: str, setup: str = SETUP) -> list[Finding]:
    """This family's findings on `code`, run in-process after `setup`."""
    return rule_helpers.run(RULES, code, setup)


def test_rule_ids_are_stable() -> None:
    assert {r.id for r in RULES} == {DROPNA, FAILED, MERGE, GROUPBY_NAN, BAD_LINES, DEDUPE,
                                     LOG_ZERO, NAN_FILTER, NAN_AGG, SPELLINGS, BINS,
                                     FORMULA}


# -- missing values ----------------------------------------------------------------------------


def test_in_place_dropna_before_a_groupby_mean() -> None:
    found = run("""
        df = df.dropna()
        df.groupby("g").x.mean()
    """)
    f = one(found, DROPNA)
    assert f.severity == "high" and f.confidence >= 0.8 and not f.is_blocking(0.5)
    assert f.evidence["values"] == {"rows_before": 200, "rows_after": 140,
                                    "fraction_lost": 0.3}
    assert f.lines == [2, 3]


def test_dropna_inplace_keyword() -> None:
    found = run("""
        df.dropna(inplace=True)
        print(df.describe())
    """)
    assert one(found, DROPNA).severity == "high"


def test_named_clean_frame_then_describe() -> None:
    found = run("""
        clean = df.dropna(subset=["x"])
        clean.describe()
    """)
    f = one(found, DROPNA)
    assert f.severity == "high" and "60 of 200" in f.explanation


def test_notna_mask_in_place_then_median() -> None:
    found = run("""
        df = df[df["x"].notna()]
        print(df.x.median())
    """)
    assert one(found, DROPNA).severity == "high"


def test_mask_built_a_line_earlier() -> None:
    found = run("""
        missing = df.x.isna()
        kept = df[~missing]
        print(stats.ttest_ind(kept[kept.g == "a"].y, kept[kept.g == "b"].y))
    """)
    assert one(found, DROPNA).severity == "high"


def test_inline_dropna_in_a_chain_uses_the_nan_counts() -> None:
    found = run("""
        print(df.dropna().groupby("g").y.mean())
    """)
    f = one(found, DROPNA)
    assert f.severity == "high" and "at least" in f.explanation


def test_numpy_nan_filter_then_mean() -> None:
    found = run("""
        arr = arr[~np.isnan(arr)]
        print(f"mean = {arr.mean():.3f}")
    """)
    assert one(found, DROPNA).severity == "high"


def test_helper_function_that_drops_rows() -> None:
    found = run("""
        def clean(d):
            return d.dropna()
        c = clean(df)
        print(c.x.mean(), c.y.std())
    """)
    f = one(found, DROPNA)
    assert f.severity == "high" and "clean()" in f.explanation


def test_coerce_then_a_nan_skipping_mean() -> None:
    found = run("""
        raw["v"] = pd.to_numeric(raw["v"], errors="coerce")
        print("mean v:", raw["v"].mean())
    """)
    f = one(found, DROPNA)
    assert f.severity == "high" and "coerce" in f.explanation


def test_coerce_then_dropna_cannot_be_quantified_but_is_flagged() -> None:
    found = run("""
        raw["v"] = pd.to_numeric(raw["v"], errors="coerce")
        raw = raw.dropna()
        print(raw.v.mean())
    """)
    f = one(found, DROPNA)
    assert f.severity in ("medium", "high") and "coerce" in f.explanation


def test_dropna_then_a_model_fit_is_capped_at_medium() -> None:
    found = run("""
        df = df.dropna()
        model = smf.ols("y ~ x", data=df).fit()
    """)
    f = one(found, DROPNA)
    assert f.severity == "medium"


def test_without_facts_a_drop_before_a_summary_is_medium() -> None:
    found = code_only(RULES, """
        data = data.dropna()
        data.groupby("site").value.mean()
    """)
    f = one(found, DROPNA)
    assert f.severity == "medium" and f.confidence < 0.6


def test_large_drop_without_a_summary_in_the_cell_is_medium() -> None:
    found = run("""
        df = df.dropna()
        df.head()
    """)
    assert one(found, DROPNA).severity == "medium"


def test_a_few_percent_lost_is_low() -> None:
    found = run("""
        some = some.dropna()
        print(some.x.mean())
    """)
    assert one(found, DROPNA).severity == "low"


def test_missingness_shown_in_an_earlier_cell_downgrades() -> None:
    found = run("""
        df = df.dropna()
        print(df.groupby("g").x.mean())
    """, SETUP + "\nmissing_summary = df.isna().sum()\n")
    assert one(found, DROPNA).severity == "medium"


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
        silent(run(code))


def test_dropna_on_a_frame_without_nan_is_sound() -> None:
    silent(run("""
        full = full.dropna()
        print(full.groupby("g").x.mean())
    """))


def test_tiny_loss_is_sound() -> None:
    silent(run("""
        few = few.dropna()
        print(few.x.mean())
    """))


def test_imputation_is_sound() -> None:
    silent(run("""
        n_missing = df.x.isna().sum()
        df["x"] = df["x"].fillna(df["x"].median())
        print(f"imputed {n_missing} values; mean x = {df.x.mean():.2f}")
    """))


def test_dropping_columns_or_subgroups_is_sound() -> None:
    silent(run("""
        wide = df.dropna(axis=1)
        a = df[df.g == "a"]
        print(a.y.mean(), wide.shape)
    """))


# -- failed runs -------------------------------------------------------------------------------


def test_status_filter_then_a_t_test() -> None:
    found = run("""
        ok = runs[runs.status == "ok"]
        print(stats.ttest_ind(ok[ok.cond == "A"].time, ok[ok.cond == "B"].time))
    """)
    f = one(found, FAILED)
    assert f.severity == "high" and f.confidence >= 0.8
    assert "succeeded" in f.explanation


def test_query_on_status() -> None:
    found = run("""
        good = runs.query("status == 'ok'")
        good.groupby("cond").time.agg(["mean", "std"])
    """)
    assert one(found, FAILED).severity == "high"


def test_boolean_failed_flag_in_place() -> None:
    found = run("""
        runs = runs[~runs.failed]
        print(runs.groupby("cond").time.median())
    """)
    assert one(found, FAILED).severity == "high"


def test_exit_code_filter_with_loc() -> None:
    found = run("""
        done = runs.loc[runs.exit_code == 0]
        print(done.time.mean())
    """)
    assert one(found, FAILED).severity == "high"


def test_isin_success_values() -> None:
    found = run("""
        finished = runs[runs.status.isin(["ok"])]
        print(finished.groupby("cond").time.mean())
    """)
    assert one(found, FAILED).severity == "high"


def test_status_mask_built_with_eq() -> None:
    found = run("""
        ok_mask = runs["status"].eq("ok")
        ok = runs[ok_mask]
        print(ok.groupby("cond").time.mean())
    """)
    assert one(found, FAILED).severity == "high"


def test_frame_created_in_the_same_cell_cannot_be_quantified() -> None:
    found = run("""
        data = runs.assign(t2=runs.time * 2)
        data = data[data.status == "ok"]
        print(data.time.mean())
    """)
    f = one(found, FAILED)
    assert f.severity == "medium" and "could not be read" in f.explanation
    # a whole copy keeps every row: the original's rows are where the drop started
    f = one(run("""
        data = runs.copy()
        data = data[data.status == "ok"]
        print(data.time.mean())
    """), FAILED)
    assert "copied on line" in f.explanation and f.evidence["values"]["rows_before"]


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
        silent(run(code))


def test_ordinary_subsets_are_not_failure_filters() -> None:
    silent(run("""
        a = runs[runs.cond == "A"]
        val = runs[runs.split == "valid"]
        print(a.time.mean(), val.time.mean())
    """))


# -- merges ------------------------------------------------------------------------------------


def test_inner_merge_losing_half_the_rows() -> None:
    found = run("""
        merged = people.merge(sites, on="id")
        print(merged.groupby("site").x.mean())
    """)
    f = one(found, MERGE)
    assert f.severity == "high" and "100 of 200" in f.explanation


def test_pd_merge_function_form() -> None:
    found = run("""
        merged = pd.merge(people, sites, on="id", how="inner")
        print(merged.groupby("site").x.mean())
    """)
    assert one(found, MERGE).severity == "high"


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
        silent(run(code))


# -- coerced values consumed in the same statement ----------------------------------------------

SHIPMENTS = """
import numpy as np, pandas as pd
rng = np.random.default_rng(3)
n = 600
days = pd.Timestamp("2023-01-01") + pd.to_timedelta(rng.integers(0, 365, n), unit="D")
us = rng.random(n) < 0.3                      # the US depot writes mm/dd/YYYY and "n/a"
shipments = pd.DataFrame({
    "shipped": np.where(us, days.strftime("%m/%d/%Y"), days.strftime("%Y-%m-%d")),
    "weight_kg": np.where(us, "n/a", rng.gamma(2, 4, n).round(1).astype(str)),
    "cost": rng.gamma(2, 50, n).round(2),
})
"""


def test_coerced_dates_grouped_by_month_in_one_chain() -> None:
    f = one(run("""
        by_month = (shipments
                    .assign(shipped=pd.to_datetime(shipments.shipped, format="%Y-%m-%d",
                                                   errors="coerce"))
                    .groupby(pd.Grouper(key="shipped", freq="MS"))
                    .cost.sum())
        print(by_month.round(0))
    """, SHIPMENTS), DROPNA)
    assert f.severity == "medium" and "NaT" in f.explanation and "groupby" in f.explanation


def test_coerced_numbers_averaged_inline() -> None:
    f = one(run('print("mean weight:", pd.to_numeric(shipments.weight_kg, errors="coerce")'
                '.mean())', SHIPMENTS), DROPNA)
    assert f.severity == "medium" and "could not be read" in f.explanation


def test_coerced_date_column_then_resample_is_quantified() -> None:
    f = one(run("""
        shipments["shipped"] = pd.to_datetime(shipments["shipped"], format="%Y-%m-%d",
                                              errors="coerce")
        per_week = shipments.set_index("shipped").resample("W").cost.sum()
        print(per_week.describe())
    """, SHIPMENTS), DROPNA)
    assert f.severity == "high" and f.evidence["values"]["fraction_lost"] > 0.2


def test_code_only_coerce_then_resample_in_a_chain() -> None:
    f = one(code_only(RULES, """
        import pandas as pd
        monthly = (sales.assign(day=pd.to_datetime(sales.day, errors="coerce"))
                   .set_index("day").resample("M")["amount"].sum())
        print(monthly)
    """), DROPNA)
    assert f.severity == "medium" and "resample" in f.explanation


def test_sound_coerce_failures_counted_inline_or_filled() -> None:
    for code in (
        """
        parsed = pd.to_datetime(shipments.shipped, format="%Y-%m-%d", errors="coerce")
        print(f"{parsed.isna().sum()} of {len(parsed)} dates could not be parsed")
        print(shipments.assign(shipped=parsed).set_index("shipped").resample("MS").cost.sum())
        """,
        """
        print("unparseable weights:", pd.to_numeric(shipments.weight_kg, errors="coerce")
              .isna().sum())
        """,
        """
        monthly = (shipments
                   .assign(shipped=pd.to_datetime(shipments.shipped, format="mixed"))
                   .set_index("shipped").resample("MS").cost.sum())
        print(monthly)
        """,
        """
        w = pd.to_numeric(shipments.weight_kg, errors="coerce").fillna(0).sum()
        print(w)
        """,
        # the column is already numeric: coercion cannot create NaN
        """
        print(pd.to_numeric(shipments.cost, errors="coerce").mean())
        """,
    ):
        silent(run(code, SHIPMENTS))


# -- deduplication on a key coarser than a record ---------------------------------------------

VISITS = """
import numpy as np, pandas as pd
from scipy import stats
rng = np.random.default_rng(8)
visits = pd.DataFrame({
    "visit_id": np.arange(2000),
    "patient_id": rng.integers(0, 400, 2000),
    "clinic": rng.choice(["a", "b", "c", "d"], 2000),
    "visit_date": pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 300, 2000), "D"),
    "charge": rng.gamma(2, 80, 2000).round(2),
})
visits = pd.concat([visits, visits.sample(60, random_state=1)], ignore_index=True)  # reloads
"""


def test_drop_duplicates_on_patient_before_summing_charges() -> None:
    f = one(run("""
        per_clinic = visits.drop_duplicates("patient_id").groupby("clinic").charge.sum()
        print(per_clinic)
    """, VISITS), DEDUPE)
    assert f.severity == "high" and f.confidence >= 0.8 and not f.is_blocking(0.8)
    assert f.evidence["values"]["rows_before"] == 2060
    assert f.evidence["values"]["rows_after"] == 395  # distinct patients
    assert "charge" in f.explanation and "sort" in f.suggestion


def test_duplicated_mask_on_a_column_then_a_test() -> None:
    f = one(run("""
        first = visits[~visits["patient_id"].duplicated()]
        print(stats.ttest_ind(first[first.clinic == "a"].charge,
                              first[first.clinic == "b"].charge))
    """, VISITS), DEDUPE)
    assert f.severity == "high"


def test_named_dedupe_counting_a_finer_id() -> None:
    f = one(run("""
        one_per = visits.loc[~visits.duplicated(subset=["patient_id"])]
        summary = one_per.groupby("clinic").agg(visits=("visit_id", "count"))
        print(summary)
    """, VISITS), DEDUPE)
    assert f.severity == "high" and "visit_id" in f.explanation


def test_in_place_dedupe_is_medium_without_column_facts() -> None:
    f = one(run("""
        visits.drop_duplicates(subset=["patient_id"], keep="last", inplace=True)
        print(visits.charge.mean())
    """, VISITS), DEDUPE)
    assert f.severity == "medium" and f.evidence["values"]["rows_after"] == 395


def test_code_only_dedupe_then_a_finer_identifier() -> None:
    f = one(code_only(RULES, """
        rev = orders.drop_duplicates(subset="customer_id").agg(
            n_orders=("order_id", "count"), revenue=("amount", "sum"))
        print(rev)
    """), DEDUPE)
    assert f.severity == "medium" and "order_id" in f.explanation


def test_sound_dedupe_twins_are_silent() -> None:
    for code in (
        # the record's own key: only the 60 reloaded rows go
        """
        clean = visits.drop_duplicates("visit_id")
        print(clean.groupby("clinic").charge.sum())
        """,
        # whole-row duplicates
        """
        print(visits.drop_duplicates().groupby("clinic").charge.sum())
        """,
        # one row per patient, but only per-patient attributes are used
        """
        patients = visits.drop_duplicates("patient_id")[["patient_id", "clinic"]]
        print(patients.clinic.value_counts())
        """,
        # the latest visit per patient, chosen deliberately
        """
        latest = visits.sort_values("visit_date").drop_duplicates("patient_id", keep="last")
        print(latest.charge.mean())
        """,
        # the loss is reported
        """
        first = visits.drop_duplicates(subset="patient_id")
        print(f"kept {len(first)} of {len(visits)} rows (first visit per patient)")
        print(first.charge.describe())
        """,
        # counting distinct patients
        """
        print(len(visits.drop_duplicates("patient_id")), "patients")
        """,
    ):
        silent(run(code, VISITS))


# -- robustness --------------------------------------------------------------------------------


def test_odd_code_does_not_raise() -> None:
    for code in ("def broken(:\n    pass", "", "x[", "df[df.a.notna()]",
                 "lambda d: d.dropna()", "for d in frames:\n    d.dropna(inplace=True)",
                 "pd.merge()", "a.merge()", "q.query(expr)", "d.drop_duplicates()",
                 "d.drop_duplicates(k).sum()", "d[~d.duplicated()].mean()",
                 "d.loc[~x.duplicated('k')].sum()", "pd.to_datetime(errors='coerce').mean()",
                 "(d.assign(t=pd.to_datetime(d.t, errors='coerce')).resample())"):
        code_only(RULES, code)


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
    found = run("""
        revenue = tickets.groupby(tickets["team"])["amount"].sum()
        print((revenue / revenue.sum()).round(3))
    """, TEAMS)
    f = one(found, GROUPBY_NAN)
    assert f.severity == "high" and f.confidence >= 0.8
    assert f.evidence["values"]["nan_keys"] > 50


def test_pivot_table_count_with_nan_keys_is_flagged() -> None:
    found = run("""
        table = tickets.pivot_table(index="team", values="hours", aggfunc="count")
        table
    """, TEAMS)
    assert one(found, GROUPBY_NAN).severity == "high"


def test_small_share_of_nan_keys_is_medium() -> None:
    found = run("""
        sizes = few_nan.groupby(["team"]).size()
        print(sizes / sizes.sum())
    """, TEAMS)
    assert one(found, GROUPBY_NAN).severity == "medium"


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
        assert not check(RULES, run_and_gather(code, TEAMS), GROUPBY_NAN), code


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
    found = run("""
        readings = pd.read_table(io.StringIO(raw_tsv), on_bad_lines="skip")
        print(readings.groupby("sensor").reading.mean())
    """, RAW_TSV)
    f = one(found, BAD_LINES)
    assert f.severity == "high"


def test_legacy_error_bad_lines_false_code_only() -> None:
    found = code_only(RULES, """
        import pandas as pd
        df = pd.read_csv("export.csv", error_bad_lines=False, warn_bad_lines=False)
        df.describe()
    """)
    assert one(found, BAD_LINES).severity in ("medium", "high")


def test_genfromtxt_invalid_raise_false_is_low() -> None:
    found = code_only(RULES, """
        import numpy as np
        data = np.genfromtxt("log.csv", delimiter=",", invalid_raise=False)
        print(data.mean(axis=0))
    """)
    assert one(found, BAD_LINES).severity == "low"


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
        assert not check(RULES, run_and_gather(code, RAW_TSV), BAD_LINES), code


# -- log of zeros -> -inf -> NaN -> skipped --------------------------------------------------------

_RAIN = """
rng = np.random.default_rng(11)
rain = pd.DataFrame({"station": np.repeat(["north", "south", "east"], 200),
                     "mm": np.where(rng.random(600) < 0.6, 0.0, rng.gamma(2, 4, 600))})
"""


def test_log_rainfall_with_dry_days_then_isfinite_mean_is_flagged() -> None:
    # 60 % of days are dry (0 mm): the 'typical' daily rainfall describes wet days only
    code = """
log_mm = np.log10(rain.mm)
ok = np.isfinite(log_mm)
typical = 10 ** log_mm[ok].groupby(rain.station[ok]).mean()
print(typical.round(2))
"""
    f = one(run(code, SETUP + _RAIN), LOG_ZERO)
    assert f.severity == "high" and f.confidence >= 0.8


def test_log_of_negative_returns_then_mean_is_flagged() -> None:
    code = """
pnl = pd.Series([120.0, -40.0, 15.0, -5.0, 60.0, 33.0])
log_pnl = np.log(pnl)
print("mean log P&L:", log_pnl.mean())
"""
    f = one(run(code), LOG_ZERO)
    assert f.severity == "high"


def test_log1p_explicit_positive_filter_and_reported_zeros_stay_quiet() -> None:
    code = """
a = np.log1p(rain.mm).groupby(rain.station).mean()
wet = rain[rain.mm > 0]
b = np.log(wet.mm).groupby(wet.station).mean()
print(a, b)
"""
    silent([f for f in run(code, SETUP + _RAIN) if f.rule_id == LOG_ZERO])
    reported = """
log_mm = np.log(rain.mm).replace(-np.inf, np.nan)
print(f"dry days left out: {(rain.mm == 0).sum()} of {len(rain)}")
print(log_mm.groupby(rain.station).mean())
"""
    silent([f for f in run(reported, SETUP + _RAIN) if f.rule_id == LOG_ZERO])


# -- deduplication on measured values, the record id left out (holdout4 round) ---------------

LEDGER = """
import numpy as np, pandas as pd
rng = np.random.default_rng(5)
n = 900
tx = pd.DataFrame({"txn_id": np.arange(n), "day": rng.integers(1, 31, n),
                   "shop": rng.choice(["north", "south"], n),
                   "amount": rng.choice([4.5, 9.99, 12.0, 19.99, 25.0], n)})
tx = pd.concat([tx, tx.sample(30, random_state=2)], ignore_index=True)  # 30 true re-sends
catch = pd.DataFrame({"fish_tag": np.arange(600), "site": rng.choice(list("ABC"), 600),
                      "species": rng.choice(["trout", "perch"], 600),
                      "length_mm": rng.normal(240, 30, 600).round(-1)})
"""


def test_dedupe_on_day_and_amount_merges_distinct_transactions() -> None:
    f = one(run("""
clean = tx.drop_duplicates(subset=["day", "shop", "amount"])
print(clean.groupby("shop").amount.sum())
""", LEDGER), DEDUPE)
    assert f.severity == "high" and "txn_id" in f.explanation


def test_dedupe_of_a_column_selection_merges_distinct_fish() -> None:
    f = one(run("""
fish = catch.loc[:, ["site", "species", "length_mm"]].drop_duplicates()
print(f"{len(fish)} fish after removing duplicates")
print(fish.groupby("species").length_mm.mean())
""", LEDGER), DEDUPE)
    assert f.severity == "high" and "fish_tag" in f.explanation


def test_dedupe_on_the_record_id_whole_rows_or_category_pairs_stays_quiet() -> None:
    silent(check(RULES, run_and_gather("""
clean = tx.drop_duplicates(subset="txn_id")
print(clean.groupby("shop").amount.sum())
""", LEDGER), DEDUPE))
    silent(check(RULES, run_and_gather("""
clean = tx.drop_duplicates()
print(clean.groupby("shop").amount.sum())
""", LEDGER), DEDUPE))
    silent(check(RULES, run_and_gather("""
pairs = catch[["site", "species"]].drop_duplicates()
print(pairs.groupby("site").size())
""", LEDGER), DEDUPE))


# -- comparison filters that drop the NaN rows --------------------------------------------------

ORDERS = """
import numpy as np, pandas as pd
rng = np.random.default_rng(9)
n = 500
orders = pd.DataFrame({"region": rng.choice(["east", "west"], n),
                       "basket": rng.gamma(4, 12, n).round(2),
                       "coupon_eur": rng.choice([2.0, 5.0, 10.0, 20.0], n),
                       "overtime_h": rng.gamma(2, 3, n).round(1)})
orders.loc[rng.random(n) < 0.5, "coupon_eur"] = np.nan   # no coupon used: left empty
orders.loc[rng.random(n) < 0.4, "overtime_h"] = np.nan   # no overtime logged: left empty
exams = pd.DataFrame({"cohort": rng.choice(["2022", "2023"], n),
                      "score": rng.normal(68, 12, n).round(), "hours": rng.gamma(3, 2, n)})
exams.loc[rng.random(n) < 0.35, "score"] = np.nan       # absent: no score
"""


def test_small_coupon_filter_drops_the_orders_without_a_coupon() -> None:
    f = one(run("""
modest = orders[orders.coupon_eur < 8]
print(modest.groupby("region").basket.mean())
""", ORDERS), NAN_FILTER)
    assert f.severity == "high" and f.evidence["values"]["missing"] > 150


def test_query_and_between_filters_drop_the_unlogged_rows() -> None:
    f = one(run("""
normal_weeks = orders.query("overtime_h <= 10")
normal_weeks.basket.describe()
""", ORDERS), NAN_FILTER)
    assert f.severity == "high"
    f = one(run("""
normal_weeks = orders.loc[orders.overtime_h.between(0, 10)]
print(normal_weeks.basket.median())
""", ORDERS), NAN_FILTER)
    assert f.severity == "high"


def test_nan_aware_filters_subgroups_thresholds_and_reported_counts_stay_quiet() -> None:
    filled = """
modest = orders[orders.coupon_eur.fillna(0) < 8]
print(modest.basket.mean())
"""
    silent(check(RULES, run_and_gather(filled, ORDERS), NAN_FILTER))
    explicit = """
modest = orders[orders.coupon_eur.isna() | (orders.coupon_eur < 8)]
print(modest.basket.mean())
"""
    silent(check(RULES, run_and_gather(explicit, ORDERS), NAN_FILTER))
    subgroup = """
big = orders[orders.coupon_eur >= 20]
print(big.basket.mean())
"""
    silent(check(RULES, run_and_gather(subgroup, ORDERS), NAN_FILTER))
    passed = """
passed = exams.query("score >= 50")
print(passed.groupby("cohort").hours.mean())
"""
    found = check(RULES, run_and_gather(passed, ORDERS), NAN_FILTER)
    assert all(f.severity not in ("high", "critical") for f in found)
    reported = """
modest = orders[orders.coupon_eur < 8]
print(f"kept {len(modest)} of {len(orders)} orders")
print(modest.basket.mean())
"""
    silent(check(RULES, run_and_gather(reported, ORDERS), NAN_FILTER))


def test_comparison_filter_inside_a_helper_is_flagged_at_its_call() -> None:
    f = one(run("""
def without_big_coupons(frame):
    return frame[frame.coupon_eur < 8]

modest = without_big_coupons(orders)
print(modest.groupby("region").basket.mean())
""", ORDERS), NAN_FILTER)
    assert f.severity == "high" and "without_big_coupons" in f.explanation


# -- filters on listed values that miss other spellings of the same categories --------------------

WARDS = """
import numpy as np, pandas as pd
rng = np.random.default_rng(11)
n = 1200
ward = rng.choice(["Cardiology", "Oncology", "Surgery", "Geriatrics"], n)
# the legacy admission system writes lower case with trailing blanks
legacy = rng.random(n) < 0.3
stays = pd.DataFrame({
    "ward": [w.lower() + " " if old else w for w, old in zip(ward, legacy)],
    "los_days": rng.gamma(2.0, 2.5, n).round(1),
    "readmitted": (rng.random(n) < 0.12).astype(int),
})
tidy = stays.assign(ward=stays.ward.str.strip().str.title())
COUNTRIES = ["United Kingdom", "New Zealand", "South Africa"]
resp = pd.DataFrame({
    "country": rng.choice(["United Kingdom", "United_Kingdom", "New Zealand", "new-zealand",
                           "South Africa", "Canada"], n, p=[.3, .15, .2, .1, .15, .1]),
    "score": rng.normal(60, 12, n).round(1),
})
sales = pd.DataFrame({"region": rng.choice(["North East", "South West", "Midlands"], n),
                      "units": rng.poisson(20, n)})
genotypes = pd.DataFrame({"allele": rng.choice(["A", "a", "B", "b"], n),
                          "trait": rng.normal(size=n)})
plans = pd.DataFrame({"plan": rng.choice(["Premium", "Premium Plus", "Basic"], n),
                      "mrr": rng.gamma(3, 20, n)})
"""


def test_isin_list_misses_legacy_spellings_before_a_groupby_mean() -> None:
    f = one(run("""
        keep = ["Cardiology", "Oncology", "Surgery"]
        los = stays[stays.ward.isin(keep)].groupby("ward").los_days.mean()
        print(los.round(2))
    """, WARDS), SPELLINGS)
    assert f.severity == "high" and f.confidence >= 0.8
    assert "'cardiology '" in f.explanation and f.evidence["values"]["rows_lost"] > 200


def test_query_with_a_list_from_an_earlier_cell_misses_underscored_names() -> None:
    f = one(run("""
        by_country = (resp.query("country in @COUNTRIES")
                      .groupby("country").score.agg(["mean", "size"]))
        print(by_country)
    """, WARDS), SPELLINGS)
    assert f.severity == "high" and "'United_Kingdom'" in f.explanation
    assert "'new-zealand'" in f.explanation


def test_equality_on_a_value_spelled_in_another_case() -> None:
    f = one(run("""
        ne = sales.loc[(sales["region"] == "north east") & (sales.units > 0)]
        print("units sold in the north east:", ne.units.sum())
    """, WARDS), SPELLINGS)
    assert "'north east' is not in the column" in f.explanation
    assert f.severity == "high"


def test_sound_value_filters_stay_silent() -> None:
    # the categories are normalised first
    silent(check(RULES, run_and_gather("""
        keep = ["Cardiology", "Oncology", "Surgery"]
        print(tidy[tidy.ward.isin(keep)].groupby("ward").los_days.mean().round(2))
    """, WARDS), SPELLINGS))
    # every listed value spelled as in the column, and no variant spelling exists
    silent(check(RULES, run_and_gather("""
        print(sales[sales.region.isin(["North East", "Midlands"])].units.sum())
    """, WARDS), SPELLINGS))
    # `A` and `a` are different alleles: case alone does not make short codes the same
    silent(check(RULES, run_and_gather("""
        print(genotypes[genotypes.allele == "A"].trait.mean())
    """, WARDS), SPELLINGS))
    # a longer, different product is not a misspelling of the listed one
    silent(check(RULES, run_and_gather("""
        print(plans.query("plan == 'Premium'").mrr.sum())
    """, WARDS), SPELLINGS))
    # excluding values keeps rows, it does not select them
    silent(check(RULES, run_and_gather("""
        print(stays[~stays.ward.isin(["Geriatrics"])].los_days.mean())
    """, WARDS), SPELLINGS))


# -- fixed bin edges that leave values out -----------------------------------------------------

INCOMES = """
import numpy as np, pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from scipy.stats import binned_statistic
rng = np.random.default_rng(12)
n = 1500
hh = pd.DataFrame({"site": rng.choice(["rural", "urban"], n),
                   "income": rng.lognormal(np.log(30_000), 0.6, n).round(-1),
                   "age": rng.integers(16, 95, n),
                   "spend": rng.gamma(2, 300, n)})
scores = pd.DataFrame({"score": np.r_[np.zeros(90), rng.uniform(0.5, 100, 910)].round(1),
                       "cohort": rng.choice(["2022", "2023"], 1000)})
"""


def test_numpy_histogram_shares_with_edges_inside_the_data_range() -> None:
    f = one(run("""
        edges = np.linspace(10_000, 80_000, 8)
        counts, _ = np.histogram(hh.income, bins=edges)
        shares = counts / counts.sum()
        print(pd.Series(shares.round(3), index=edges[:-1]))
    """, INCOMES), BINS)
    assert f.severity == "high" and f.confidence >= 0.7
    v = f.evidence["values"]
    assert v["first_edge"] == 10_000 and v["last_edge"] == 80_000 and v["data_max"] > 80_000


def test_pd_cut_age_bands_stored_in_a_column_count_the_lost_rows() -> None:
    f = one(run("""
        hh["band"] = pd.cut(hh.age, bins=[18, 30, 45, 65])
        print(hh.band.value_counts(normalize=True).sort_index())
    """, INCOMES), BINS)
    assert f.severity == "high" and f.confidence >= 0.85
    lost = f.evidence["values"]["lost"]
    assert lost > 300 and f"{lost} of 1500" in f.explanation


def test_pd_cut_drops_values_equal_to_the_first_edge() -> None:
    f = one(run("""
        scores["grade"] = pd.cut(scores.score, [0, 50, 80, 100], labels=["C", "B", "A"])
        print(scores.groupby("grade", observed=True).size())
    """, INCOMES), BINS)
    assert "equals the first edge" in f.explanation
    assert f.evidence["values"]["lost"] == 90


def test_histogram_inside_a_helper_called_per_group() -> None:
    f = one(run("""
        EDGES = np.arange(10_000, 90_001, 10_000)

        def mean_from_bands(x):
            counts, _ = np.histogram(x, bins=EDGES)
            mids = (EDGES[:-1] + EDGES[1:]) / 2
            return (counts * mids).sum() / counts.sum()

        for site, grp in hh.groupby("site"):
            print(site, round(mean_from_bands(grp.income)))
    """, INCOMES), BINS)
    assert f.severity == "high" and "hh.income" in f.explanation


def test_binned_statistic_and_plot_with_narrow_edges_are_flagged() -> None:
    f = one(run("""
        res = binned_statistic(hh.income.to_numpy(), hh.spend.to_numpy(), "mean",
                               bins=[15_000, 25_000, 35_000, 45_000])
        print(res.statistic.round(1))
    """, INCOMES), BINS)
    assert f.severity in ("medium", "high")
    f = one(run("""
        fig, ax = plt.subplots()
        ax.hist(hh.age, bins=[20, 40, 60, 80])
    """, INCOMES), BINS)
    assert f.severity == "medium"


def test_sound_binning_stays_silent() -> None:
    # open-ended outer bins
    silent(check(RULES, run_and_gather("""
        edges = np.r_[-np.inf, np.linspace(10_000, 80_000, 8), np.inf]
        counts, _ = np.histogram(hh.income, bins=edges)
        print(counts / counts.sum())
    """, INCOMES), BINS))
    # edges that cover the data, lowest edge included
    silent(check(RULES, run_and_gather("""
        hh["band"] = pd.cut(hh.age, bins=[0, 30, 45, 65, 120], include_lowest=True)
        print(hh.band.value_counts(normalize=True).sort_index())
    """, INCOMES), BINS))
    # a number of bins spans the data
    silent(check(RULES, run_and_gather("""
        counts, edges = np.histogram(hh.income, bins=12)
        print(counts / counts.sum())
    """, INCOMES), BINS))
    # the helper checks that every value fell in a band
    silent(check(RULES, run_and_gather("""
        EDGES = np.arange(10_000, 90_001, 10_000)

        def mean_from_bands(x):
            counts, _ = np.histogram(x, bins=EDGES)
            assert counts.sum() == len(x), "values outside the bands"
            return counts

        print(mean_from_bands(hh.income[hh.income.between(10_000, 90_000)]))
    """, INCOMES), BINS))
    # values clipped into the range first
    silent(check(RULES, run_and_gather("""
        x = np.clip(hh.income, 10_000, 80_000)
        counts, _ = np.histogram(x, bins=np.linspace(10_000, 80_000, 8))
        print(counts / counts.sum())
    """, INCOMES), BINS))


# -- records skipped by an `except` that only moves on (9afe260)

LOGS = """
import numpy as np, pandas as pd
rng = np.random.default_rng(31)
n = 400
readings = pd.DataFrame({
    "meter": rng.integers(1, 40, n),
    # a third of the exports use a decimal comma and a unit suffix the parser does not know
    "kwh": [f"{v:.2f}" if i % 3 else f"{v:.2f}".replace(".", ",") + " kWh"
            for i, v in enumerate(rng.gamma(3, 4, n))],
})
stamps = [f"2024-03-{d:02d} 10:00" if d % 4 else f"{d:02d}/03/2024" for d in range(1, 29)]
ok_readings = readings.assign(kwh=readings.kwh.str.replace(",", ".").str.replace(" kWh", ""))
"""


def test_itertuples_parse_errors_skipped_before_a_mean() -> None:
    f = one(run("""
        values = []
        for row in readings.itertuples():
            try:
                values.append(float(row.kwh))
            except ValueError:
                continue
        print("mean daily use:", np.mean(values))
    """, LOGS), FAILED)
    assert f.severity == "high"
    assert f.evidence["values"]["rows_before"] == 400
    assert f.evidence["values"]["rows_after"] < 300


def test_range_index_loop_with_pass_skips_records() -> None:
    f = one(run("""
        per_meter = []
        for i in range(len(readings)):
            try:
                per_meter.append((readings.meter.iloc[i], float(readings.kwh.iloc[i])))
            except (TypeError, ValueError):
                pass
        use = pd.DataFrame(per_meter, columns=["meter", "kwh"])
        print(use.groupby("meter").kwh.sum().describe())
    """, LOGS), FAILED)
    assert "skips every record" in f.explanation


def test_dates_parsed_in_a_loop_over_a_list_skip_other_formats() -> None:
    f = one(run("""
        from datetime import datetime
        parsed = []
        for s in stamps:
            try:
                parsed.append(datetime.strptime(s, "%Y-%m-%d %H:%M"))
            except ValueError:
                ...
        print("median day of the month:", np.median([d.day for d in parsed]))
    """, LOGS), FAILED)
    assert f.evidence["values"]["rows_before"] == 28


def test_sound_parse_loops_stay_quiet() -> None:
    # failures are kept and counted
    silent(check(RULES, run_and_gather("""
        values, bad = [], []
        for row in readings.itertuples():
            try:
                values.append(float(row.kwh))
            except ValueError:
                bad.append(row.kwh)
        print(f"unparsed: {len(bad)} of {len(readings)}")
        print("mean daily use:", np.mean(values))
    """, LOGS), FAILED))
    # the handler counts failures instead of just moving on
    silent(check(RULES, run_and_gather("""
        values, failures = [], 0
        for row in readings.itertuples():
            try:
                values.append(float(row.kwh))
            except ValueError:
                failures += 1
        print("mean daily use:", np.mean(values), "failures:", failures)
    """, LOGS), FAILED))
    # every record parses: nothing is skipped
    silent(check(RULES, run_and_gather("""
        values = []
        for row in ok_readings.itertuples():
            try:
                values.append(float(row.kwh))
            except ValueError:
                continue
        print("mean daily use:", np.mean(values))
    """, LOGS), FAILED))


# -- a hand-written `errors="coerce"`: a helper whose `except` returns NaN (9afe260) ---------------


def test_helper_returning_nan_applied_to_a_column_then_grouped_mean() -> None:
    f = one(run("""
        def to_kwh(s):
            try:
                return float(s)
            except ValueError:
                return np.nan

        readings["kwh_num"] = readings.kwh.apply(to_kwh)
        print(readings.groupby("meter").kwh_num.mean().describe())
    """, LOGS), DROPNA)
    assert f.severity == "high" and "to_kwh" in f.explanation
    assert f.evidence["values"]["rows_before"] == 400


def test_helper_returning_none_mapped_and_averaged_inline() -> None:
    f = one(run("""
        def parse(s):
            try:
                return float(s)
            except (TypeError, ValueError):
                return None

        print("mean:", readings.kwh.map(parse).mean())
    """, LOGS), DROPNA)
    assert f.severity in ("medium", "high") and "parse" in f.explanation


def test_sound_parsers_stay_quiet() -> None:
    # the NaNs the helper creates are counted and shown
    silent(check(RULES, run_and_gather("""
        def to_kwh(s):
            try:
                return float(s)
            except ValueError:
                return np.nan

        readings["kwh_num"] = readings.kwh.apply(to_kwh)
        print("unparsed readings:", readings.kwh_num.isna().sum())
        print(readings.groupby("meter").kwh_num.mean().describe())
    """, LOGS), DROPNA))
    # the helper handles the other format instead of giving up
    silent(check(RULES, run_and_gather("""
        def to_kwh(s):
            try:
                return float(s)
            except ValueError:
                return float(s.replace(",", ".").replace(" kWh", ""))

        readings["kwh_num"] = readings.kwh.apply(to_kwh)
        print(readings.groupby("meter").kwh_num.mean().describe())
    """, LOGS), DROPNA))


# -- NaN-skipping extremes and means over data with missing values (9afe260) -----------------------

SENSORS = """
import numpy as np, pandas as pd
rng = np.random.default_rng(41)
temps = rng.normal(70, 6, (12, 50))
temps[temps > 80] = np.nan              # readings over the logger's range are lost
names = [f"bay{i}" for i in range(12)]
cabinets = pd.DataFrame({"cabinet": np.repeat(["c1", "c2", "c3"], 100),
                         "load_pct": rng.uniform(20, 99, 300)})
cabinets.loc[cabinets.load_pct > 90, "load_pct"] = np.nan
flows = rng.gamma(2, 5, 500)
flows[:80] = np.nan
clean_temps = np.nan_to_num(temps, nan=75.0)
SPEC = 85
"""


def test_nanmax_per_row_decides_a_spec_verdict() -> None:
    f = one(run("""
        worst = {b: np.nanmax(row) for b, row in zip(names, temps)}
        ok = {b: t <= SPEC for b, t in worst.items()}
        print(ok)
    """, SENSORS), NAN_AGG)
    assert f.severity == "high" and f.confidence == 0.7
    assert f.evidence["values"]["data"] == "temps"


def test_pandas_max_of_a_column_with_missing_values_against_a_limit() -> None:
    f = one(run("""
        peak = cabinets.groupby("cabinet")["load_pct"].max()
        print(peak[peak < 95])
    """, SENSORS), NAN_AGG)
    assert f.severity == "high" and "cabinets.load_pct" in f.explanation


def test_nanpercentile_reported_and_nanmean_with_many_missing() -> None:
    f = one(run("""
        print("p95 flow:", np.nanpercentile(flows, 95))
    """, SENSORS), NAN_AGG)
    assert f.severity == "medium" and f.confidence == 0.5
    f = one(run("""
        print("mean flow:", np.nanmean(flows))
    """, SENSORS), NAN_AGG)
    assert f.severity == "medium" and f.evidence["values"]["missing"] == 80


def test_sound_nan_aggregates_stay_quiet() -> None:
    # the missing readings are counted next to the extreme
    silent(check(RULES, run_and_gather("""
        worst = {b: np.nanmax(row) for b, row in zip(names, temps)}
        unread = {b: int(np.isnan(row).sum()) for b, row in zip(names, temps)}
        print({b: (t <= SPEC, unread[b]) for b, t in worst.items()})
    """, SENSORS), NAN_AGG))
    # data without missing values
    silent(check(RULES, run_and_gather("""
        worst = {b: np.nanmax(row) for b, row in zip(names, clean_temps)}
        print({b: t <= SPEC for b, t in worst.items()})
    """, SENSORS), NAN_AGG))
    # a pandas maximum that is only shown, not used for a decision
    silent(check(RULES, run_and_gather("""
        print(cabinets.groupby("cabinet")["load_pct"].max())
    """, SENSORS), NAN_AGG))


# -- formula models dropping incomplete rows -------------------------------------------------

CLINIC = """
import numpy as np, pandas as pd
import statsmodels.api as sm
import statsmodels.formula.api as smf
import patsy
rng = np.random.default_rng(3)
n = 400
patients = pd.DataFrame({"age": rng.integers(30, 90, n), "bmi": rng.normal(28, 4, n),
                         "ward": rng.choice(["north", "south"], n)})
patients["hba1c"] = np.where(rng.random(n) < 0.4, np.nan, rng.normal(6.5, 1.0, n))
patients["readmitted"] = (rng.random(n) < 0.2).astype(int)
patients["visits"] = rng.poisson(2.0, n)
patients.loc[:2, "bmi"] = np.nan            # 0.75% missing: negligible
houses = pd.DataFrame({"area": rng.normal(120, 30, n), "rooms": rng.integers(1, 7, n)})
houses["age_years"] = np.where(rng.random(n) < 0.25, np.nan, rng.integers(0, 80, n))
houses["price"] = 2000 * houses.area + rng.normal(0, 1e4, n)
"""


def test_formula_logit_with_keywords_drops_missing_rows() -> None:
    f = one(run("""
        res = smf.logit(formula="readmitted ~ age + bmi + hba1c", data=patients).fit(disp=0)
        print(res.params.round(3))
        print("predicted readmission rate:", res.predict().mean().round(3))
    """, CLINIC), FORMULA)
    assert f.severity == "high" and "hba1c" in f.explanation
    assert f.evidence["values"]["fraction_dropped_at_least"] > 0.3
    # the fitted result's nobs makes the loss exact (more than the worst column's NaN: bmi's
    # few missing rows add to hba1c's)
    ns: dict = {}
    exec(CLINIC, ns)
    complete = len(ns["patients"][["readmitted", "age", "bmi", "hba1c"]].dropna())
    values = f.evidence["values"]
    assert values["rows_used"] == complete
    assert values["rows_dropped_at_least"] == 400 - complete
    assert f"the fit used {complete} of them" in f.explanation


def test_from_formula_and_patsy_design_drop_missing_rows() -> None:
    f = one(run("""
        pois = sm.GLM.from_formula("visits ~ age + C(ward) + hba1c", data=patients,
                                   family=sm.families.Poisson()).fit()
        print(pois.params)
    """, CLINIC), FORMULA)
    assert f.severity == "high"
    f = one(run("""
        y, X = patsy.dmatrices("price ~ area + rooms + age_years", houses,
                               return_type="dataframe")
        fit = sm.OLS(y, X).fit()
        print(f"price per m2: {fit.params['area']:.0f}")
    """, CLINIC), FORMULA)
    assert f.severity == "medium" and "age_years" in f.explanation


def test_formulas_in_a_loop_through_a_helper() -> None:
    f = one(run("""
        def r2(frame, formula):
            return smf.ols(formula, data=frame).fit().rsquared
        specs = ["price ~ area", "price ~ area + rooms + age_years"]
        print({s: round(r2(houses, s), 3) for s in specs})
        for spec in specs:
            print(spec, r2(houses, spec))
    """, CLINIC), FORMULA)
    assert f.severity == "medium" and "inside `r2()`" in f.explanation


def test_sound_formula_fits_stay_quiet() -> None:
    # missing values encoded (indicator + filled value): every row is fitted
    silent(check(RULES, run_and_gather("""
        d = patients.assign(has_a1c=patients.hba1c.notna().astype(int),
                            a1c=patients.hba1c.fillna(patients.hba1c.mean()))
        res = smf.logit("readmitted ~ age + has_a1c + a1c", data=d).fit(disp=0)
        print(res.params.round(3))
    """, CLINIC), FORMULA))
    # the number of observations used is printed next to the frame size
    silent(check(RULES, run_and_gather("""
        res = smf.logit("readmitted ~ age + hba1c", data=patients).fit(disp=0)
        print(f"fitted on {int(res.nobs)} of {len(patients)} patients")
        print(res.params.round(3))
    """, CLINIC), FORMULA))
    # the statsmodels summary table shows "No. Observations"
    silent(check(RULES, run_and_gather("""
        print(smf.ols("price ~ area + age_years", data=houses).fit().summary())
    """, CLINIC), FORMULA))
    # missing='raise' cannot lose rows; a negligible share (bmi: 0.75%) is not flagged
    silent(check(RULES, run_and_gather("""
        a = smf.ols("price ~ area + rooms", data=houses, missing="raise").fit()
        b = smf.ols("visits ~ age + bmi", data=patients).fit()
        print(a.params, b.params)
    """, CLINIC), FORMULA))
    # an explicit complete-case frame is another rule's business
    silent(check(RULES, run_and_gather("""
        b = smf.ols("visits ~ age + hba1c", data=patients.dropna()).fit()
        print(b.params)
    """, CLINIC), FORMULA))


# -- string parses that turn unmatched values into NaN ---------------------------------------

ASSAYS = """
import numpy as np, pandas as pd
rng = np.random.default_rng(11)
n = 300
conc = rng.lognormal(1.0, 0.4, n).round(2)
units = np.where(rng.random(n) < 0.3, "ug/L", "mg/L")
lab = pd.DataFrame({"site": rng.choice(["river", "well"], n),
                    "result": [f"{c} {u}" for c, u in zip(conc, units)]})
clean_lab = pd.DataFrame({"site": lab.site, "result": [f"{c} mg/L" for c in conc]})
holey_lab = clean_lab.copy()
holey_lab.loc[:59, "result"] = None            # missing before any parse
dims = [f"{a}x{b}" if i % 5 else f"{a} by {b}" for i, (a, b) in
        enumerate(zip(rng.integers(10, 60, n), rng.integers(10, 60, n)))]
parcels = pd.DataFrame({"dims": dims, "depot": rng.choice(["A", "B"], n)})
boxes = pd.DataFrame({"dims": [d.replace(" by ", "x") for d in dims]})
incomes = [f"${v:,.0f}" if i % 6 else f"{v / 1000:.0f}k" for i, v in
           enumerate(rng.lognormal(10.5, 0.5, n))]
survey = pd.DataFrame({"region": rng.choice(["east", "west"], n), "income": incomes})
"""


def test_str_extract_that_misses_a_unit_before_a_group_mean() -> None:
    f = one(run("""
        lab["mg_per_l"] = lab["result"].str.extract(r"([\\d.]+) mg/L", expand=False).astype(float)
        print(lab.groupby("site")["mg_per_l"].mean())
    """, ASSAYS), DROPNA)
    assert f.severity == "high" and "str.extract" in f.explanation
    assert 0.2 < f.evidence["values"]["fraction_lost"] < 0.4


def test_split_then_index_into_a_series_before_a_mean() -> None:
    f = one(run("""
        width = parcels.dims.str.split("x").str[1].astype(float)
        print("mean width:", width.mean())
    """, ASSAYS), DROPNA)
    assert f.severity == "high" and "str.split" in f.explanation


def test_to_numeric_coerce_after_str_replace_chain() -> None:
    f = one(run("""
        survey["income_usd"] = pd.to_numeric(
            survey.income.str.replace("$", "", regex=False).str.replace(",", ""),
            errors="coerce")
        print(survey.groupby("region").income_usd.median())
    """, ASSAYS), DROPNA)
    assert f.severity == "high"


def test_sound_string_parses_stay_quiet() -> None:
    # every value matches the pattern
    silent(check(RULES, run_and_gather("""
        clean_lab["mg_per_l"] = clean_lab["result"].str.extract(r"([\\d.]+) mg/L",
                                                                expand=False).astype(float)
        print(clean_lab.groupby("site")["mg_per_l"].mean())
        width = boxes.dims.str.split("x").str[1].astype(float)
        print("mean width:", width.mean())
    """, ASSAYS), DROPNA))
    # the parse adds no NaN: those it has were missing in the text already
    silent(check(RULES, run_and_gather("""
        holey_lab["mg_per_l"] = holey_lab["result"].str.extract(r"([\\d.]+) mg/L",
                                                                expand=False).astype(float)
        print(holey_lab["mg_per_l"].mean())
    """, ASSAYS), DROPNA))
    # the failures are counted and shown
    quiet(check(RULES, run_and_gather("""
        lab["mg_per_l"] = lab["result"].str.extract(r"([\\d.]+) mg/L", expand=False).astype(float)
        print("unparsed results:", lab["mg_per_l"].isna().sum(), "of", len(lab))
        print(lab.groupby("site")["mg_per_l"].mean())
    """, ASSAYS), DROPNA))


# -- censored lab text ("<2") coerced to NaN, then summarised (holdout9 miss) -------------------

WELLS = """
import numpy as np, pandas as pd
rng = np.random.default_rng(5)
n = 240
def lab(vals, lod, share):
    out = vals.round(2).astype(str).astype(object)
    out[rng.random(len(vals)) < share] = f"<{lod}"
    return out
wells = pd.DataFrame({
    "county": rng.choice(["Adams", "Brown", "Clark"], n),
    "nitrate_raw": lab(rng.gamma(2, 4, n), 1, 0.35),
    "lead": lab(rng.gamma(2, 3, n), 2, 0.3),
    "arsenic": lab(rng.gamma(2, 2, n), 1, 0.25),
})
blanks = wells.assign(nitrate_raw=wells.nitrate_raw.where(
    ~wells.nitrate_raw.str.startswith("<"), None))   # blanks, not censored text
"""


def test_coerced_column_summarised_with_an_exceedance_share_is_not_a_report() -> None:
    # the share over the limit is printed, but nothing counts the values that failed
    f = one(run("""
        wells["nitrate"] = pd.to_numeric(wells["nitrate_raw"], errors="coerce")
        tab = wells.groupby("county")["nitrate"].agg(["mean", "max"])
        print(tab)
        print(f"over MCL: {(wells['nitrate'].dropna() > 10).mean():.1%}")
    """, WELLS), DROPNA)
    assert f.severity == "high" and not f.is_blocking(0.5)
    assert f.evidence["values"]["rows_before"] == 240
    assert 0.3 < f.evidence["values"]["fraction_lost"] < 0.45 and "Line 2" in f.explanation


def test_coerced_columns_in_a_loop_or_an_apply_are_quantified() -> None:
    for code in (
        """
        for col in ["lead", "arsenic"]:
            wells[col] = pd.to_numeric(wells[col], errors="coerce")
        print(wells.groupby("county")[["lead", "arsenic"]].mean().round(2))
        print("lead exceedances:", (wells["lead"] > 15).sum())
        """,
        """
        metals = ["lead", "arsenic"]
        wells[metals] = wells[metals].apply(pd.to_numeric, errors="coerce")
        print(wells[metals].describe())
        """,
    ):
        f = one(run(code, WELLS), DROPNA)
        assert f.severity == "high" and "lead: " in f.explanation and "arsenic: " in \
            f.explanation


def test_coerced_inside_assign_lambda_counts_the_new_column() -> None:
    f = one(run("""
        clean = wells.assign(nitrate=lambda d: pd.to_numeric(d["nitrate_raw"], errors="coerce"))
        print(clean.groupby("county").nitrate.mean())
    """, WELLS), DROPNA)
    assert f.severity == "high" and "`clean.nitrate`" in f.explanation


def test_sound_coercion_failures_counted_or_censored_values_kept() -> None:
    for code in (
        # counted right after the coercion
        """
        wells["nitrate"] = pd.to_numeric(wells["nitrate_raw"], errors="coerce")
        print("below detection:", wells["nitrate"].isna().sum(), "of", len(wells))
        print(wells.groupby("county")["nitrate"].agg(["count", "mean", "max"]))
        """,
        # censored values kept at half the detection limit, flagged
        """
        for col in ["lead", "arsenic"]:
            text = wells[col].astype(str)
            below = text.str.startswith("<")
            val = text.str.lstrip("<").astype(float)
            wells[col] = val.where(~below, val / 2)
            wells[col + "_nd"] = below
        print(wells.groupby("county")[["lead", "arsenic"]].mean().round(2))
        """,
        # failures counted per column before the summary
        """
        metals = ["lead", "arsenic"]
        conv = wells[metals].apply(pd.to_numeric, errors="coerce")
        print("failed to parse:", (conv.isna() & wells[metals].notna()).sum().to_dict())
        wells[metals] = conv
        print(wells[metals].describe())
        """,
        # the "<" prefix stripped first: coercion creates no NaN
        """
        clean = wells.assign(nitrate=lambda d: pd.to_numeric(
            d["nitrate_raw"].str.lstrip("<"), errors="coerce"))
        print(clean.groupby("county").nitrate.mean())
        """,
    ):
        silent(run(code, WELLS))


def test_blanks_already_missing_are_not_counted_as_coercion_failures() -> None:
    found = run("""
        blanks["nitrate"] = pd.to_numeric(blanks["nitrate_raw"], errors="coerce")
        print(blanks.groupby("county")["nitrate"].mean())
    """, WELLS)
    assert not [f for f in found if f.rule_id == DROPNA and "coerce" in f.explanation]


# -- inner merges whose result has fewer rows than the input holding the records ---------------

READINGS = """
import numpy as np, pandas as pd
rng = np.random.default_rng(11)
stations = pd.DataFrame({"station": [f"S{i:03d}" for i in range(80)],
                         "region": rng.choice(["north", "south", "coast"], 80)})
readings = pd.DataFrame({"station": rng.choice([f"S{i:03d}" for i in range(100)], 3000),
                         "pm25": rng.gamma(2.0, 6.0, 3000)})
all_stations = pd.DataFrame({"station": [f"S{i:03d}" for i in range(100)],
                             "region": rng.choice(["north", "south", "coast"], 100)})
"""


def test_inner_merge_counting_only_the_result_is_not_a_check() -> None:
    """`len(merged)` printed alone does not say how many readings had no station."""
    f = one(run("""
        merged = readings.merge(stations, on="station")
        print(f"readings: {len(merged)}")
        print(merged.groupby("region").pm25.mean())
    """, READINGS), MERGE)
    assert f.severity == "high" and "of 3000 rows" in f.explanation
    assert f.evidence["values"]["rows_before"] == 3000


def test_inner_merge_records_on_the_right_side() -> None:
    """The lookup table on the left, the records on the right: the readings are what the
    merge loses (pd.merge, how omitted)."""
    f = one(run("""
        tab = pd.merge(stations, readings, on="station")
        tab.pivot_table(index="region", values="pm25", aggfunc="median")
    """, READINGS), MERGE)
    assert f.severity == "high" and "`readings`" in f.explanation


def test_inner_join_with_index_records_lost() -> None:
    f = one(run("""
        per_region = readings.join(stations.set_index("station"), on="station", how="inner")
        share = per_region.groupby("region").size() / per_region.shape[0]
        print(share.round(3), per_region.pm25.mean())
    """, READINGS), MERGE)
    assert f.severity in ("medium", "high")


def test_sound_merge_checks_stay_quiet() -> None:
    for code in (
        # before and after counts printed
        """
        merged = readings.merge(stations, on="station")
        print(f"{len(readings)} readings, {len(merged)} with a known station")
        print(merged.groupby("region").pm25.mean())
        """,
        # anti-join count
        """
        orphan = ~readings.station.isin(stations.station)
        print(f"{orphan.sum()} readings from unlisted stations")
        tab = pd.merge(stations, readings, on="station")
        tab.groupby("region").pm25.median()
        """,
        # left merge with an indicator, counts shown
        """
        m = readings.merge(stations, on="station", how="left", indicator=True)
        print(m._merge.value_counts())
        m.groupby("region", dropna=False).pm25.mean()
        """,
        # inner merge that loses nothing, only the result counted
        """
        merged = readings.merge(all_stations, on="station")
        print(len(merged))
        print(merged.groupby("region").pm25.mean())
        """,
        # an assert that nothing was lost
        """
        merged = readings.merge(all_stations, on="station")
        assert len(merged) == len(readings)
        merged.groupby("region").pm25.mean()
        """,
    ):
        quiet(run(code, READINGS))
        assert not [f for f in run(code, READINGS) if f.rule_id == MERGE], code


# -- coerced values that a share over a limit counts as within it ------------------------------

GAUGES = """
import numpy as np, pandas as pd
rng = np.random.default_rng(12)
n = 400
site = rng.choice(["dock", "mill", "yard", "gate"], n)
temp = rng.normal(31.0, 4.0, n) + np.where(site == "mill", 5.0, 0.0)
raw = [f"{t:.1f}" for t in temp]
for i in range(n):
    if site[i] == "mill" and rng.random() < 0.25:
        raw[i] = rng.choice(["HI", ">45", "err"])
log = pd.DataFrame({"site": site, "temp_raw": raw})
"""
# the same gauges with the unreadable values spread evenly over the sites (about 6% each)
GAUGES_EVEN = GAUGES.replace('if site[i] == "mill" and rng.random() < 0.25:',
                             'if rng.random() < 0.06:')


def _coerce_findings(code: str) -> list[Finding]:
    return [f for f in run(code, GAUGES_EVEN) if f.rule_id == DROPNA]


def test_coerced_values_in_a_share_over_a_limit() -> None:
    for code in (
        # a share printed from a frame column
        """
        log["temp"] = pd.to_numeric(log["temp_raw"], errors="coerce")
        print(log.groupby("site")["temp"].mean())
        print(f"readings above 40C: {(log['temp'] > 40).mean():.1%}")
        """,
        # a lambda share inside a groupby agg
        """
        log["temp"] = pd.to_numeric(log.temp_raw, errors="coerce")
        log.groupby("site")["temp"].agg(mean="mean", hot=lambda s: (s >= 40).mean())
        """,
        # a Series and numpy, with the method comparison form
        """
        t = pd.to_numeric(log.temp_raw, errors="coerce")
        print(np.nanmean(t), np.mean(t > 40), t.gt(40).sum())
        """,
    ):
        found = _coerce_findings(code)
        assert len(found) == 1, code
        f = found[0]
        assert f.severity == "medium" and "compares False" in f.explanation, code
        assert not f.is_blocking(0.5)


def test_coerced_values_counted_or_no_threshold_stay_low() -> None:
    for code in (
        """
        log["temp"] = pd.to_numeric(log["temp_raw"], errors="coerce")
        print(f"{log['temp'].isna().sum()} unreadable of {len(log)}")
        print(f"readings above 40C: {(log['temp'] > 40).mean():.1%}")
        """,
        """
        log["temp"] = pd.to_numeric(log.temp_raw, errors="coerce")
        log.groupby("site")["temp"].agg(rows="size", read="count", hot=lambda s: (s >= 40).mean())
        """,
        """
        t = pd.to_numeric(log.temp_raw, errors="coerce")
        print(np.isnan(t).sum(), np.mean(t[t.notna()] > 40))
        """,
    ):
        assert not [f for f in _coerce_findings(code) if f.severity != "low"], code
    # no share over a limit: the overall 4% stays a low note
    found = _coerce_findings("""
        log["temp"] = pd.to_numeric(log["temp_raw"], errors="coerce")
        log.groupby("site")["temp"].mean()
    """)
    assert [f.severity for f in found] == ["low"]


def test_coerced_loss_concentrated_in_one_group_from_per_level_nan_counts() -> None:
    """With the kernel's per-level NaN counts (`missing_by`), a loss small overall but large
    in one group the cell reports is judged on that group."""
    code = """
        log["temp"] = pd.to_numeric(log["temp_raw"], errors="coerce")
        log.groupby("site")["temp"].mean()
    """
    ev = run_and_gather(code, GAUGES)  # unreadable values only at the mill
    assert set(ev.objects["log"].missing_by["temp"]["site"]) == {"mill"}
    f = one(check(RULES, ev, DROPNA), DROPNA)
    assert f.severity == "high" and "'mill'" in f.explanation
    assert f.evidence["values"]["group_fraction_lost"] >= 0.1
    # the same overall loss spread evenly over the groups stays low
    assert [f.severity for f in _coerce_findings(code)] == ["low"]


# -- records skipped into per-group containers, counted from the tested samples ----------------

SURVEYS = """
import numpy as np, pandas as pd
from collections import defaultdict
from scipy import stats
rng = np.random.default_rng(5)
# one clinic exports scores as '7/10' and weights as '81kg', which float() rejects
forms = []
for i in range(160):
    clinic = "east" if i % 4 == 0 else "west"
    score, kg = rng.normal(6, 1.5), rng.normal(78, 9)
    forms.append({"arm": "drug" if i % 2 else "placebo", "clinic": clinic,
                  "score": f"{score:.1f}/10" if clinic == "east" else f"{score:.1f}",
                  "kg": f"{kg:.0f}kg" if clinic == "east" else f"{kg:.0f}"})
clean_forms = [dict(f, score=f["score"].split("/")[0], kg=f["kg"].rstrip("kg"))
               for f in forms]
table = pd.DataFrame(forms)
clean_table = pd.DataFrame(clean_forms)
"""


def test_skipped_records_in_a_dict_of_lists_counted_from_the_test_samples() -> None:
    f = one(run("""
        by_arm = {"drug": [], "placebo": []}
        for form in forms:
            try:
                s = float(form["score"])
            except ValueError:
                continue
            by_arm[form["arm"]].append(s)
        print({a: round(np.mean(v), 2) for a, v in by_arm.items()})
        print(stats.ttest_ind(by_arm["drug"], by_arm["placebo"]))
    """, SURVEYS), FAILED)
    assert f.severity == "high"
    assert f.evidence["values"]["rows_before"] == 160
    assert f.evidence["values"]["rows_after"] == 120
    assert "skipped" in f.explanation and "ttest_ind" in f.explanation


def test_skipped_rows_into_a_defaultdict_before_a_rank_test() -> None:
    f = one(run("""
        weights = defaultdict(list)
        for _, row in table.iterrows():
            try:
                weights[row["arm"]].append(float(row["kg"]))
            except (TypeError, ValueError):
                pass
        u = stats.mannwhitneyu(weights["drug"], weights["placebo"])
        print(f"U = {u.statistic:.0f}, p = {u.pvalue:.3f}")
    """, SURVEYS), FAILED)
    assert f.severity == "high"
    assert f.evidence["values"]["rows_after"] == 120


def test_skipped_records_into_nested_lists_without_a_test_are_uncounted_medium() -> None:
    f = one(run("""
        cols = {"score": [[], []], "kg": [[], []]}
        for form in forms:
            k = int(form["arm"] == "drug")
            try:
                s, w = float(form["score"]), float(form["kg"])
            except ValueError:
                continue
            cols["score"][k].append(s)
            cols["kg"][k].append(w)
        print([np.mean(x) for x in cols["score"]], [np.median(x) for x in cols["kg"]])
    """, SURVEYS), FAILED)
    assert f.severity == "medium"
    assert "could not be read" in f.explanation


def test_sound_nested_collection_loops_stay_quiet() -> None:
    # every record parses: the tested samples hold every record
    silent(check(RULES, run_and_gather("""
        by_arm = {"drug": [], "placebo": []}
        for form in clean_forms:
            try:
                s = float(form["score"])
            except ValueError:
                continue
            by_arm[form["arm"]].append(s)
        print(stats.ttest_ind(by_arm["drug"], by_arm["placebo"]))
    """, SURVEYS), FAILED))
    silent(check(RULES, run_and_gather("""
        weights = defaultdict(list)
        for _, row in clean_table.iterrows():
            try:
                weights[row["arm"]].append(float(row["kg"]))
            except (TypeError, ValueError):
                pass
        print(stats.mannwhitneyu(weights["drug"], weights["placebo"]))
    """, SURVEYS), FAILED))
    # failures are kept and shown
    silent(check(RULES, run_and_gather("""
        by_arm, bad = {"drug": [], "placebo": []}, []
        for form in forms:
            try:
                s = float(form["score"])
            except ValueError:
                bad.append(form)
                continue
            by_arm[form["arm"]].append(s)
        print(f"{len(bad)} of {len(forms)} forms unparsed")
        print(stats.ttest_ind(by_arm["drug"], by_arm["placebo"]))
    """, SURVEYS), FAILED))


# -- a small overall loss concentrated in the groups the summary compares ------------------------

SHOPS = """
import numpy as np, pandas as pd
rng = np.random.default_rng(9)
n = 2500
store = rng.integers(1, 26, n)                    # 25 stores, ~100 sales each
sales = pd.DataFrame({"store": store, "amount": rng.gamma(2, 30, n),
                      "channel": rng.choice(["web", "shop"], n)})
sales["region"] = np.where(store > 20, "north", np.where(store > 10, "south", "west"))
# the store table lacks two of the five northern stores (8% of all sales, 40% of north's)
stores = pd.DataFrame({"store": [s for s in range(1, 26) if s not in (24, 25)]})
stores["size_m2"] = rng.integers(200, 900, len(stores))
all_stores = pd.DataFrame({"store": range(1, 26), "size_m2": rng.integers(200, 900, 25)})
# 8% of rows missing, either all from north or spread over every region
gappy = sales.copy()
gappy.loc[gappy.store.isin([24, 25]), "amount"] = np.nan
even = sales.copy()
even.loc[rng.random(n) < 0.08, "amount"] = np.nan
"""


def test_inner_merge_loss_concentrated_in_a_reported_group_is_high() -> None:
    f = one(run("""
        merged = pd.merge(sales, stores, on="store")
        merged.groupby("region")["amount"].mean()
    """, SHOPS), MERGE)
    assert f.severity == "high"
    assert f.evidence["values"]["fraction_lost"] < 0.10
    assert f.evidence["values"]["group_fraction_lost"] > 0.3
    assert "'north'" in f.explanation


def test_inner_join_loss_concentrated_in_a_reported_group_is_high() -> None:
    f = one(run("""
        per_m2 = sales.join(stores.set_index("store"), on="store", how="inner")
        per_m2["per_m2"] = per_m2["amount"] / per_m2["size_m2"]
        print(per_m2.groupby(["region", "channel"]).per_m2.median())
    """, SHOPS), MERGE)
    assert f.severity == "high"


def test_dropna_concentrated_in_a_reported_group_is_high() -> None:
    f = one(run("""
        kept = gappy.dropna(subset=["amount"])
        kept.groupby("region").amount.agg(["mean", "median"])
    """, SHOPS), DROPNA)
    assert f.severity == "high" and "'north'" in f.explanation


LETTERED = """
import numpy as np, pandas as pd
rng = np.random.default_rng(9)
codes = list("ABCDEFGHIJKLMNOPQRSTUVWXY")
sales = pd.DataFrame({"store": rng.choice(codes, 2500), "amount": rng.gamma(2, 30, 2500)})
stores = pd.DataFrame({"store": codes[:-2], "size_m2": rng.integers(200, 900, 23)})
"""


def test_inner_merge_whole_categories_vanishing_is_at_least_medium() -> None:
    f = one(run("""
        merged = sales.merge(stores, on="store")
        print(merged.amount.mean())
    """, LETTERED), MERGE)
    assert f.severity == "medium" and "'X'" in f.explanation


def test_sound_spread_or_complete_losses_stay_quiet() -> None:
    quiet(run("""
        merged = pd.merge(sales, all_stores, on="store")
        merged.groupby("region")["amount"].mean()
    """, SHOPS))
    quiet(run("""
        per_m2 = sales.join(all_stores.set_index("store"), on="store", how="inner")
        per_m2["per_m2"] = per_m2["amount"] / per_m2["size_m2"]
        print(per_m2.groupby(["region", "channel"]).per_m2.median())
    """, SHOPS))
    # 8% missing at random over every region: a low note, not high
    found = check(RULES, run_and_gather("""
        kept = even.dropna(subset=["amount"])
        kept.groupby("region").amount.agg(["mean", "median"])
    """, SHOPS), DROPNA)
    assert [f.severity for f in found] == ["low"]
    # the merge's loss reported next to the result
    silent(check(RULES, run_and_gather("""
        merged = pd.merge(sales, stores, on="store")
        print(f"{len(sales) - len(merged)} of {len(sales)} sales have no store record")
        merged.groupby("region")["amount"].mean()
    """, SHOPS), MERGE))


# -- a count of the unparsed rows, or a second parse filling the first's NaN, is not silent ---

PARSE_TWICE = """
import numpy as np, pandas as pd
rng = np.random.default_rng(4)
n = 400
vals = rng.normal(50, 8, n).round(2)
text = [f"{v}" if i % 5 else f"{v}".replace(".", ",") for i, v in enumerate(vals)]
assays = pd.DataFrame({"plate": rng.choice(["p1", "p2", "p3"], n), "reading": text})
dose_mg = [str(d) if i % 3 else "" for i, d in enumerate(rng.integers(5, 50, n))]
dose_alt = [str(d) if not i % 3 else "" for i, d in enumerate(rng.integers(5, 50, n))]
meds = pd.DataFrame({"ward": rng.choice(["A", "B"], n), "dose_mg": dose_mg,
                     "dose_alt": [s if i % 12 else "?" for i, s in enumerate(dose_alt)]})
meds_ok = meds.assign(dose_alt=dose_alt)
stamps = [f"2024-03-{1 + i % 28:02d}" if i % 2 else f"03/{1 + i % 28:02d}/2024"
          for i in range(n)]
visits = pd.DataFrame({"clinic": rng.choice(["north", "south"], n), "when": stamps,
                       "mins": rng.gamma(3, 10, n)})
odd = visits.assign(when=[s if i % 4 else f"{1 + i % 28:02d}.03.2024"
                          for i, s in enumerate(stamps)])
"""


def test_unparsed_count_through_a_mask_name_is_a_report() -> None:
    flawed = """
        conc = pd.to_numeric(assays["reading"], errors="coerce")
        assays["conc"] = conc
        assays.groupby("plate").conc.mean()
    """
    assert one(run(flawed, PARSE_TWICE), DROPNA).severity == "high"
    # the mask of unparsed values, counted and printed under a word the text rule ignores
    silent(check(RULES, run_and_gather("""
        conc = pd.to_numeric(assays["reading"], errors="coerce")
        unreadable = conc.isna()
        print("unreadable:", unreadable.sum(), "| read:", (~unreadable).sum())
        assays["conc"] = conc
        assays.groupby("plate").conc.mean()
    """, PARSE_TWICE), DROPNA))


def test_assert_on_the_unparsed_share_is_a_check() -> None:
    silent(check(RULES, run_and_gather("""
        conc = pd.to_numeric(assays.reading, errors="coerce")
        bad = np.isnan(conc.to_numpy())
        assert bad.mean() < 0.3, bad.mean()
        print(np.nanmean(conc), conc.median())
    """, PARSE_TWICE), DROPNA))
    silent(check(RULES, run_and_gather("""
        conc = pd.to_numeric(assays.reading.str.replace(",", "."), errors="coerce")
        assert not conc.isna().any()
        print(conc.mean(), conc.std())
    """, PARSE_TWICE), DROPNA))
    # a numpy count of the NaN, printed
    silent(check(RULES, run_and_gather("""
        conc = pd.to_numeric(assays.reading, errors="coerce").to_numpy()
        print("nan:", np.count_nonzero(np.isnan(conc)), "of", conc.size)
        print(np.nanmean(conc))
    """, PARSE_TWICE), DROPNA))


def test_second_parse_filling_the_first_is_not_a_loss() -> None:
    # two columns of the same dose, each filling the other's gaps: nothing is left NaN
    quiet(run("""
        a = pd.to_numeric(meds_ok["dose_mg"], errors="coerce")
        b = pd.to_numeric(meds_ok["dose_alt"], errors="coerce")
        meds_ok["dose"] = a.fillna(b)
        meds_ok.groupby("ward").dose.mean()
    """, PARSE_TWICE))
    # two date formats combined
    quiet(run("""
        iso = pd.to_datetime(visits["when"], format="%Y-%m-%d", errors="coerce")
        us = pd.to_datetime(visits["when"], format="%m/%d/%Y", errors="coerce")
        visits["day"] = iso.combine_first(us)
        visits.set_index("day").resample("W")["mins"].agg(["size", "median"])
    """, PARSE_TWICE))
    # where(notna, other)
    quiet(run("""
        a = pd.to_numeric(meds_ok.dose_mg, errors="coerce")
        b = pd.to_numeric(meds_ok.dose_alt, errors="coerce")
        dose = a.where(a.notna(), b)
        print(dose.mean(), dose.quantile([0.1, 0.9]))
    """, PARSE_TWICE))


def test_fill_that_still_leaves_values_unparsed_is_caught() -> None:
    # a third format neither parse covers: a quarter of the visits stay NaT
    f = one(run("""
        iso = pd.to_datetime(odd["when"], format="%Y-%m-%d", errors="coerce")
        us = pd.to_datetime(odd["when"], format="%m/%d/%Y", errors="coerce")
        odd["day"] = iso.combine_first(us)
        odd.set_index("day").resample("W")["mins"].agg(["size", "median"])
    """, PARSE_TWICE), DROPNA)
    assert "fill on line" in f.explanation and f.evidence["values"]["fraction_lost"] > 0.2
    # the fallback column has '?' entries: about 1 in 36 doses stays NaN after the fill
    found = check(RULES, run_and_gather("""
        a = pd.to_numeric(meds["dose_mg"], errors="coerce")
        b = pd.to_numeric(meds["dose_alt"], errors="coerce")
        meds["dose"] = a.fillna(b)
        meds.groupby("ward").dose.mean()
    """, PARSE_TWICE), DROPNA)
    assert found and all(f.severity in ("low", "medium") for f in found)
    # a constant fill is imputation, not a second reading: the coercion is still judged
    assert one(run("""
        conc = pd.to_numeric(assays["reading"], errors="coerce")
        assays["conc"] = conc
        assays["conc_filled"] = conc.fillna(0)
        assays.groupby("plate").conc.mean()
    """, PARSE_TWICE), DROPNA).severity == "high"


TRIAL_LABS = """
import numpy as np, pandas as pd
rng = np.random.default_rng(2)
patients = pd.DataFrame({"pid": [f"P{i:04d}" for i in range(300)],
                         "arm": rng.choice(["drug", "placebo"], 300)})
labs = pd.DataFrame({"pid": [f"P{i:04d}" if i % 2 else f"p-{i}" for i in range(300)],
                     **{f"marker_{k}": rng.normal(size=300) for k in range(25)}})
"""


def test_table_shape_footer_is_not_a_report_of_the_loss() -> None:
    # the displayed frame ends in "[2 rows x 25 columns]": pandas' footer, not a count of
    # the patients the merge lost
    f = one(run("""
        both = patients.merge(labs, on="pid")
        both.groupby("arm").mean(numeric_only=True)
    """, TRIAL_LABS), MERGE)
    assert f.severity == "high"


RUNOFF = """
import numpy as np, pandas as pd
rng = np.random.default_rng(42)
rows = []
for cohort in range(2015, 2023):
    for lag in range(1, 9):
        if cohort + lag - 1 <= 2022:  # later lags have not happened yet
            for _ in range(3):
                rows.append((cohort, lag, rng.gamma(2.0, 500.0 / lag)))
claims = pd.DataFrame(rows, columns=["cohort", "lag", "paid"])
grid = claims.pivot_table(index="cohort", columns="lag", values="paid", aggfunc="sum")
vintage = grid.cumsum(axis=1)                  # a cumulative triangle from the setup
wide = vintage.copy()                          # the same grid with scattered gaps
wide.iloc[[0, 2, 3], 1] = np.nan
wide.iloc[[1, 4], 3] = np.nan
visits = pd.DataFrame(rng.normal(50, 8, (40, 4)), columns=[1, 2, 3, 4])
visits.iloc[5:9, 1] = np.nan                   # dropout: 4, then 13, then 14 missing
visits.iloc[5:18, 2] = np.nan
visits.iloc[3:18, 3] = np.nan
"""


def test_runoff_triangle_future_cells_are_not_lost_rows() -> None:
    # age-to-age factors on the origins observed at both ages: the NaN are future periods
    quiet(run("""
        tri = claims.pivot_table(index="cohort", columns="lag", values="paid",
                                 aggfunc="sum").cumsum(axis=1)
        f = {}
        for k in tri.columns[:-1]:
            pair = tri[[k, k + 1]].dropna()
            f[k] = pair[k + 1].sum() / pair[k].sum()
        print(pd.Series(f).round(3))
    """, RUNOFF))
    # a comprehension with notna masks on a triangle from the setup
    quiet(run("""
        link = [vintage.loc[vintage[j + 1].notna(), j + 1].sum()
                / vintage.loc[vintage[j + 1].notna(), j].sum() for j in vintage.columns[:-1]]
        cdf = np.cumprod(link[::-1])[::-1]
        print(np.round(cdf, 3))
    """, RUNOFF))
    # groupby + unstack, then a .loc mask on the later period picking both periods
    quiet(run("""
        tri = claims.groupby(["cohort", "lag"])["paid"].sum().unstack().cumsum(axis=1)
        ata = {}
        for d in tri.columns[:-1]:
            seen = tri.loc[tri[d + 1].notna(), [d, d + 1]]
            ata[d] = seen[d + 1].sum() / seen[d].sum()
        print(ata)
    """, RUNOFF))


def test_gaps_that_are_not_a_triangle_are_still_caught() -> None:
    # scattered gaps in the grid: the same pairwise loop drops observed cohorts
    found = run("""
        f = {}
        for k in wide.columns[:-1]:
            pair = wide[[k, k + 1]].dropna()
            f[k] = pair[k + 1].sum() / pair[k].sum()
        print(pd.Series(f).round(3))
    """, RUNOFF)
    assert [f for f in found if f.rule_id == DROPNA], rule_helpers.describe(found)
    # dropout in a longitudinal wide frame (no staircase of one more NaN per period)
    found = run("""
        change = visits[[1, 4]].dropna()
        print((change[4] - change[1]).mean())
    """, RUNOFF)
    assert one(found, DROPNA).severity == "high"
    # every incomplete row of a triangle dropped: only the oldest cohort is left
    found = run("""
        full = vintage.dropna()
        print(full.mean())
    """, RUNOFF)
    assert one(found, DROPNA).severity == "high"


COPIED = """
import numpy as np, pandas as pd
rng = np.random.default_rng(7)
when = rng.choice(["2023-03-01", "2023-05-17", "04/06/2023", "19/07/2023"], 400,
                  p=[0.35, 0.35, 0.15, 0.15])
orders = pd.DataFrame({"when": when, "region": rng.choice(["n", "s"], 400),
                       "value": rng.gamma(2.0, 40.0, 400)})
"""


def test_in_place_drop_on_a_copy_made_in_the_cell_is_counted() -> None:
    # the frame is a copy made in the cell, then dropped in place: rows of the original
    # against rows after give the loss (about 30% of orders)
    f = one(run("""
        o = orders.copy()
        o["when"] = pd.to_datetime(o["when"], format="%Y-%m-%d", errors="coerce")
        o = o.dropna(subset=["when"])
        o.groupby("region")["value"].mean()
    """, COPIED), DROPNA)
    assert f.severity == "high" and f.evidence["values"]["fraction_lost"] > 0.2
    # sound twin: both formats parsed, nothing left to drop
    quiet(run("""
        o = orders.copy()
        iso = pd.to_datetime(o["when"], format="%Y-%m-%d", errors="coerce")
        o["when"] = iso.fillna(pd.to_datetime(o["when"], format="%d/%m/%Y", errors="coerce"))
        o = o.dropna(subset=["when"])
        o.groupby("region")["value"].mean()
    """, COPIED))


# -- only the rows left are counted; reshape before dropna; dates coerced then dropped ----------

PANEL = """
import numpy as np, pandas as pd
from scipy import stats
rng = np.random.default_rng(5)
rows = []
for i in range(300):
    for t in range(1, 4):
        y = 50 + rng.normal(0, 5) - t
        keep = t == 1 or rng.random() > 0.18
        rows.append({"unit": f"U{i}", "t": t, "y": y if keep else np.nan})
long = pd.DataFrame(rows)
dates = pd.DataFrame({"region": np.repeat(["east", "west"], 150),
                      "start": ["2023-01-05"] * 150 + ["05/01/2023"] * 150,
                      "end": ["2023-02-01"] * 300})
"""


def test_dropna_after_a_pivot_counts_the_wide_rows_and_a_df_is_not_a_report() -> None:
    f = one(run("""
        wide = long.pivot(index="unit", columns="t", values="y").dropna()
        t, p = stats.ttest_rel(wide[3], wide[1])
        print(f"t({len(wide) - 1}) = {t:.2f}")
    """, PANEL), DROPNA)
    assert f.evidence["values"]["rows_before"] == 300
    assert f.severity == "medium" and "remain" in f.explanation


def test_dropna_after_unstack_of_two_keys_is_counted_per_unit() -> None:
    f = one(run("""
        w = long.set_index(["unit", "t"])["y"].unstack().dropna()
        change = (w[3] - w[1]).mean()
        print(round(change, 2), w.shape)
    """, PANEL), DROPNA)
    assert f.evidence["values"]["rows_before"] == 300


def test_sound_reshape_with_counts_of_the_wide_table_stays_quiet() -> None:
    silent(run("""
        wide = long.pivot(index="unit", columns="t", values="y")
        complete = wide.dropna()
        print(f"complete: {len(complete)} of {len(wide)} units")
        stats.ttest_rel(complete[3], complete[1])
    """, PANEL))
    quiet(run("""
        wide = long.pivot(index="unit", columns="t", values="y")
        print(wide.notna().sum().to_dict())
        w = wide.dropna()
        (w[3] - w[1]).mean()
    """, PANEL))


def test_dates_coerced_then_dropped_before_a_share_is_caught() -> None:
    f = one(run("""
        d = dates.copy()
        d["s"] = pd.to_datetime(d.start, errors="coerce", format="%Y-%m-%d")
        d["e"] = pd.to_datetime(d.end, errors="coerce", format="%Y-%m-%d")
        d = d.dropna(subset=["s", "e"])
        d["days"] = (d.e - d.s).dt.days
        print(f"within 30 days: {100 * (d.days <= 30).mean():.1f}%")
        d.groupby("region").days.median()
    """, PANEL), DROPNA)
    assert f.severity == "high" and f.evidence["values"]["rows_before"] == 300


def test_coerced_numbers_dropped_with_only_the_remaining_n_shown() -> None:
    f = one(run("""
        r = raw.assign(val=pd.to_numeric(raw.v, errors="coerce"))
        ok = r[r.val.notna()]
        print(f"n = {len(ok)}", np.mean(ok.val))
    """), DROPNA)
    assert f.severity == "medium"


def test_sound_coerced_dates_with_the_unparsed_counted_stay_quiet() -> None:
    quiet(run("""
        d = dates.copy()
        d["s"] = pd.to_datetime(d.start, errors="coerce", format="%Y-%m-%d")
        bad = d.s.isna()
        print("unparsed by region:", bad.groupby(d.region).sum().to_dict())
        d = d[~bad]
        d.s.dt.month.mean()
    """, PANEL))
    quiet(run("""
        r = raw.assign(val=pd.to_numeric(raw.v, errors="coerce"))
        ok = r.dropna(subset=["val"])
        print(f"kept {len(ok)} of {len(r)}")
        ok.val.mean()
    """))


# -- a `<noun>_status` column is a category, not a run outcome ----------------------------------

CATEGORY_SETUP = """
import numpy as np, pandas as pd
from scipy import stats
rng = np.random.default_rng(3)
n = 240
people = pd.DataFrame({
    "marital_status": rng.choice(["married", "single", "divorced"], n),
    "smoking_status": rng.choice(["current", "former", "never"], n),
    "employment_status": rng.choice(["employed", "unemployed", "retired"], n),
    "run_status": rng.choice(["ok", "failed"], n, p=[0.7, 0.3]),
    "qc_status": rng.choice(["passed", "failed"], n, p=[0.8, 0.2]),
    "sbp": rng.normal(128, 15, n),
    "income": rng.lognormal(10, 0.5, n),
})
"""

CATEGORY_SOUND = {
    # two groups of a demographic status compared with .loc masks
    "loc_two_groups_ttest": """
        a = people.loc[people["marital_status"] == "married", "sbp"]
        b = people.loc[people["marital_status"] == "single", "sbp"]
        print(stats.ttest_ind(a, b))
    """,
    # isin over category labels, then a group summary
    "isin_groupby": """
        smokers = people[people.smoking_status.isin(["current", "former"])]
        print(smokers.groupby("smoking_status").sbp.mean())
    """,
    # a mask built with .eq a line above, used to select one group
    "eq_mask_then_median": """
        employed = people["employment_status"].eq("employed")
        print(people[employed].income.median(), people[~employed].income.median())
    """,
}

CATEGORY_FLAWED = {
    "loc_two_groups_ttest": """
        a = people.loc[people["run_status"] == "ok", "sbp"]
        print(stats.ttest_1samp(a, 125))
    """,
    "isin_groupby": """
        usable = people[people.qc_status.isin(["passed"])]
        print(usable.groupby("smoking_status").sbp.mean())
    """,
    "eq_mask_then_median": """
        good = people["qc_status"].ne("failed")
        kept = people[good]
        print(kept.income.median())
    """,
}


def test_category_status_columns_are_not_failed_runs() -> None:
    for idiom, code in CATEGORY_SOUND.items():
        found = run(code, CATEGORY_SETUP)
        quiet(found)
        assert not [f for f in found if f.rule_id == FAILED], (idiom, found)


def test_status_columns_compared_with_outcome_values_still_flagged() -> None:
    for idiom, code in CATEGORY_FLAWED.items():
        f = one(run(code, CATEGORY_SETUP), FAILED)
        assert f.severity == "high", (idiom, f.explanation)


# -- a few values coerced to NaN and dropped before an extreme is reported ----------------------

RARE_SETUP = """
import numpy as np, pandas as pd
rng = np.random.default_rng(3)
n = 1200
amount = rng.gamma(2.0, 120.0, n).round(2)
big = rng.choice(n, 12, replace=False)                 # 1 % of orders above 1,000
amount[big] = rng.uniform(1000, 5000, 12).round(2)
orders = pd.DataFrame({"store": rng.choice(["north", "south"], n),
                       "amount": [f"{v:,.2f}" for v in amount]})  # '1,234.50'
assay = pd.DataFrame({"plate": rng.choice(["p1", "p2", "p3"], n),
                      "titre": [">5000" if i in set(big) else f"{v:.1f}"
                                for i, v in enumerate(amount)]})
lod = rng.random(n) < 0.015                             # 1.5 % below the detection limit
panel = pd.DataFrame({"arm": rng.choice(["drug", "placebo"], n),
                      "crp": np.where(lod, "<0.3", rng.lognormal(1, 0.6, n).round(2).astype(str))})
"""

RARE_FLAWED = {
    "to_numeric_dropna_max": """
        orders["amt"] = pd.to_numeric(orders["amount"], errors="coerce")
        orders = orders.dropna(subset=["amt"])
        print("largest order:", orders["amt"].max(), "mean:", orders["amt"].mean())
    """,
    "notna_mask_quantile": """
        assay["t"] = pd.to_numeric(assay.titre, errors="coerce")
        ok = assay[assay.t.notna()]
        print(ok.groupby("plate").t.quantile(0.95))
    """,
    "assign_then_groupby_max": """
        orders = orders.assign(amt=pd.to_numeric(orders.amount, errors="coerce"))
        top = orders.groupby("store")["amt"].max()
        print(top)
    """,
    "censored_markers_group_max": """
        panel["crp_num"] = pd.to_numeric(panel["crp"], errors="coerce")
        valid = panel.dropna(subset=["crp_num"])
        print(valid.groupby("arm")["crp_num"].agg(["mean", "median"]), valid.crp_num.min())
    """,
    "series_nan_skipping_max": """
        amt = pd.to_numeric(orders.amount, errors="coerce")
        print("max order by store:", amt.groupby(orders.store).max(), "n =", len(amt))
    """,
}

RARE_SOUND = {
    "separators_stripped": """
        orders["amt"] = pd.to_numeric(orders["amount"].str.replace(",", ""), errors="raise")
        print("largest order:", orders["amt"].max(), "mean:", orders["amt"].mean())
    """,
    "failures_counted": """
        assay["t"] = pd.to_numeric(assay.titre, errors="coerce")
        bad = assay.t.isna()
        print(f"{bad.sum()} titres did not parse:", assay.loc[bad, "titre"].unique()[:5])
        ok = assay[~bad]
        print(ok.groupby("plate").t.quantile(0.95))
    """,
    "assign_failures_counted": """
        orders = orders.assign(amt=pd.to_numeric(orders.amount, errors="coerce"))
        print("unparsed amounts:", orders.amt.isna().sum())
        print(orders.groupby("store")["amt"].max())
    """,
    "censored_markers_counted": """
        panel["crp_num"] = pd.to_numeric(panel["crp"], errors="coerce")
        print("below LOD:", panel["crp_num"].isna().sum(), "of", len(panel))
        valid = panel.dropna(subset=["crp_num"])
        print(valid.groupby("arm")["crp_num"].agg(["mean", "median"]), valid.crp_num.min())
    """,
    "mean_only": """
        orders["amt"] = pd.to_numeric(orders["amount"], errors="coerce")
        orders = orders.dropna(subset=["amt"])
        print("mean order:", orders["amt"].mean())
    """,
}


def test_few_parse_failures_dropped_before_an_extreme_are_flagged() -> None:
    for idiom, code in RARE_FLAWED.items():
        found = run(code, RARE_SETUP)
        hits = [f for f in found if f.rule_id == DROPNA]
        assert hits and hits[0].severity == "medium", (idiom, found)
        assert "fail to parse" in hits[0].explanation, idiom


def test_few_parse_failures_counted_or_avoided_stay_quiet() -> None:
    for idiom, code in RARE_SOUND.items():
        found = run(code, RARE_SETUP)
        assert not [f for f in found if f.rule_id == DROPNA and f.severity != "low"], \
            (idiom, found)


# -- a completeness share computed per group inside a lambda or comprehension -------------------

SHARE_SETUP = """
import numpy as np, pandas as pd
rng = np.random.default_rng(4)
n = 900
meters = pd.DataFrame({"zone": rng.choice(["east", "west", "hill"], n),
                       "kwh": rng.gamma(3.0, 2.0, n)})
meters.loc[meters.zone.eq("hill") & (rng.random(n) < 0.3), "kwh"] = np.nan
"""

SHARE_SOUND = {
    "groupby_apply_lambda": """
        share = meters.groupby("zone")["kwh"].apply(lambda s: s.notna().mean())
        print(share.round(3))
        kept = meters.dropna(subset=["kwh"])
        print(kept.groupby("zone").kwh.sum())
    """,
    "dict_comprehension": """
        gaps = {z: g.kwh.isna().sum() for z, g in meters.groupby("zone")}
        print("missing readings per zone:", gaps)
        kept = meters.dropna(subset=["kwh"])
        print(kept.groupby("zone").kwh.median())
    """,
    "agg_lambda_in_frame": """
        report = meters.groupby("zone").agg(missing=("kwh", lambda s: int(s.isna().sum())))
        kept = meters.dropna()
        report["total"] = kept.groupby("zone").kwh.sum()
        print(report)
    """,
}


def test_per_group_missing_share_in_a_lambda_counts_as_a_report() -> None:
    for idiom, code in SHARE_SOUND.items():
        found = run(code, SHARE_SETUP)
        assert not [f for f in found if f.rule_id == DROPNA], (idiom, found)


def test_per_group_share_of_something_else_is_not_a_report() -> None:
    found = run("""
        big = meters.groupby("zone")["kwh"].apply(lambda s: (s > 5).mean())
        print(big.round(3))
        kept = meters.dropna(subset=["kwh"])
        print(kept.groupby("zone").kwh.sum())
    """, SHARE_SETUP)
    assert one(found, DROPNA).severity in ("medium", "high")


# -- 5-10 % of values coerced to NaN whose spread over the groups is unknown (holdout30) --------

# parcel weights logged as text, thousands written "1,250": heavier parcels (more at the south
# depot) fail to parse, about 9 % overall
PARCELS = """
import numpy as np, pandas as pd
from scipy import stats
rng = np.random.default_rng(31)
n = 800
depot = rng.choice(["north", "south"], n)
grams = rng.lognormal(np.log(np.where(depot == "south", 600, 400)), 0.45)
text = np.array([f"{g:.0f}" if g < 1000 else f"{int(g) // 1000},{int(g) % 1000:03d}"
                 for g in grams], dtype=object)
parcels = pd.DataFrame({"depot": depot, "weight_g": text})
"""


def test_in_place_drop_measured_per_group_from_the_levels_read_before_the_cell() -> None:
    """The kernel reads the text columns' levels of a frame the cell filters in place before
    it runs, so a drop that takes one group's rows (here the heavy south parcels written with
    a thousands separator) is measured, not only suspected."""
    code = """
        parcels["weight_g"] = pd.to_numeric(parcels["weight_g"], errors="coerce")
        parcels = parcels.dropna(subset=["weight_g"])
        print(parcels.groupby("depot")["weight_g"].mean())
    """
    ev = run_and_gather(code, PARCELS)
    before = ev.before["parcels"].levels["depot"]
    assert sum(before.values()) == 800 and set(before) == {"north", "south"}
    f = one(check(RULES, ev, DROPNA), DROPNA)
    assert f.severity == "high" and "'south'" in f.explanation
    assert "just under 1,000" in f.explanation  # why those values failed
    # the same drop on a frame whose separators were stripped first loses nothing: silent
    silent(run("""
        parcels["weight_g"] = pd.to_numeric(parcels["weight_g"].str.replace(",", ""),
                                            errors="coerce")
        parcels = parcels.dropna(subset=["weight_g"])
        print(parcels.groupby("depot")["weight_g"].mean())
    """, PARCELS))


def test_coerced_loss_of_five_to_ten_percent_with_unread_spread_is_a_note() -> None:
    for code in (
        # numpy: a coerced Series, NaN-skipping means of two masks
        """
        w = pd.to_numeric(parcels.weight_g, errors="coerce")
        print(np.nanmean(w[parcels.depot == "south"]) - np.nanmean(w[parcels.depot == "north"]))
        """,
        # scipy: a derived column, dropna(inplace=True), then a t-test of two subsets
        """
        parcels["kg"] = pd.to_numeric(parcels.weight_g, errors="coerce") / 1000
        parcels.dropna(subset=["kg"], inplace=True)
        a = parcels.loc[parcels.depot == "south", "kg"]
        b = parcels.loc[parcels.depot == "north", "kg"]
        print(stats.ttest_ind(a, b))
        """,
    ):
        f = one(run(code, PARCELS), DROPNA)
        assert f.severity == "medium" and not f.is_blocking(0.5), code
        assert 0.05 <= f.evidence["values"]["fraction_lost"] < 0.10, code
        assert "rarely a random few" in f.explanation, code


def test_coerced_loss_counted_or_separator_parsed_stays_quiet() -> None:
    for code in (
        # the separator removed before parsing: nothing fails
        """
        parcels["weight_g"] = pd.to_numeric(parcels["weight_g"].str.replace(",", ""),
                                            errors="coerce")
        parcels = parcels.dropna(subset=["weight_g"])
        print(parcels.groupby("depot")["weight_g"].mean())
        """,
        # the failures counted before the drop
        """
        parcels["weight_g"] = pd.to_numeric(parcels["weight_g"], errors="coerce")
        print("unparseable weights:", parcels["weight_g"].isna().sum(), "of", len(parcels))
        parcels = parcels.dropna(subset=["weight_g"])
        print(parcels.groupby("depot")["weight_g"].mean())
        """,
        # numpy with the NaN count printed
        """
        w = pd.to_numeric(parcels.weight_g, errors="coerce")
        print("unreadable:", np.isnan(w).sum())
        print(np.nanmean(w[parcels.depot == "south"]) - np.nanmean(w[parcels.depot == "north"]))
        """,
    ):
        silent(run(code, PARCELS))


def test_coerced_loss_measured_as_balanced_stays_low_and_uneven_is_a_note() -> None:
    # the kernel's per-level NaN counts show the gauges' failures spread evenly: low (7.5 %)
    found = _coerce_findings("""
        log["temp"] = pd.to_numeric(log["temp_raw"], errors="coerce")
        log.groupby("site")["temp"].median()
    """)
    assert [f.severity for f in found] == ["low"]
    # one group lost 5-10 %, at least twice the overall share: a medium note
    uneven = GAUGES.replace('if site[i] == "mill" and rng.random() < 0.25:',
                            'if (site[i] == "mill" and rng.random() < 0.08) or '
                            'rng.random() < 0.01:')
    f = one(run("""
        log["temp"] = pd.to_numeric(log["temp_raw"], errors="coerce")
        log.groupby("site")["temp"].mean()
    """, uneven), DROPNA)
    g = f.evidence["values"]["group_fraction_lost"]
    assert f.severity == "medium" and 0.05 <= g < 0.10, f.explanation


def test_coercion_inside_a_helper_is_followed_to_the_call() -> None:
    for code in (
        # the helper returns the coerced column; the caller stores it and drops the NaN
        """
        def to_float(frame, col):
            return pd.to_numeric(frame[col], errors="coerce")
        parcels["w"] = to_float(parcels, "weight_g")
        parcels = parcels.dropna(subset=["w"])
        print(parcels.groupby("depot")["w"].mean())
        """,
        # the helper works on a copy, coerces and drops, the caller compares the depots
        """
        def numeric_rows(frame, col):
            out = frame.copy()
            out[col] = pd.to_numeric(out[col], errors="coerce")
            return out.dropna(subset=[col])
        clean = numeric_rows(parcels, "weight_g")
        print(clean.groupby("depot")["weight_g"].median())
        """,
        # the column passed by keyword, a Series summarised
        """
        def as_number(frame, col):
            return pd.to_numeric(frame[col], errors="coerce")
        w = as_number(parcels, col="weight_g")
        print(w.mean(), w.std())
        """,
    ):
        f = one(run(code, PARCELS), DROPNA)
        assert f.severity in ("medium", "high"), code
        assert "coerce" in f.explanation and f.evidence["values"]["fraction_lost"] > 0.05, code


def test_helper_that_parses_cleanly_or_counts_its_failures_stays_quiet() -> None:
    for code in (
        """
        def to_float(frame, col):
            return pd.to_numeric(frame[col].str.replace(",", ""), errors="coerce")
        parcels["w"] = to_float(parcels, "weight_g")
        parcels = parcels.dropna(subset=["w"])
        print(parcels.groupby("depot")["w"].mean())
        """,
        """
        def numeric_rows(frame, col):
            out = frame.copy()
            out[col] = pd.to_numeric(out[col], errors="coerce")
            print(f"{col}: {out[col].isna().sum()} unparseable of {len(out)}")
            return out.dropna(subset=[col])
        clean = numeric_rows(parcels, "weight_g")
        print(clean.groupby("depot")["weight_g"].median())
        """,
        """
        def as_number(frame, col):
            v = pd.to_numeric(frame[col], errors="coerce")
            assert v.notna().all(), v.isna().sum()
            return v
        light = parcels[~parcels.weight_g.str.contains(",")]
        print(as_number(light, "weight_g").mean())
        """,
    ):
        silent(run(code, PARCELS))


# -- coerced values that are the whole upper tail (what is left stops just under 1,000) ----------

# invoices exported as formatted text ("1,234.50"): about 3 % are 1,000 or more, and exactly
# those fail to parse, so the drop removes the top of the distribution, not a random few
INVOICES = """
import numpy as np, pandas as pd
from scipy import stats
import statsmodels.formula.api as smf
rng = np.random.default_rng(44)
n = 3000
region = rng.choice(["coast", "inland", "metro"], n)
value = np.round(rng.lognormal(5.8, 0.6, n), 2)
inv = pd.DataFrame({"region": region, "amount_txt": [f"{v:,.2f}" for v in value],
                    "days_late": rng.poisson(3 + value / 400)})
"""

_TRUNCATED = (
    # pandas: coerce a column, dropna(subset=…), group means
    ("""
inv["amount"] = pd.to_numeric(inv["amount_txt"], errors="coerce")
inv = inv.dropna(subset=["amount"])
print(inv.groupby("region")["amount"].mean().round(2))
""", 'inv["amount_txt"]'),
    # scipy: assign + dropna chain, a t-test and a total
    ("""
clean = inv.assign(amount=pd.to_numeric(inv.amount_txt, errors="coerce")).dropna(
    subset=["amount"])
print(stats.ttest_ind(clean.amount[clean.region == "coast"],
                      clean.amount[clean.region == "metro"]))
print("total billed", clean.amount.sum())
""", "inv.amount_txt"),
    # statsmodels: a helper that coerces and keeps notna rows, then a regression
    ("""
def tidy(frame):
    out = frame.copy()
    out["amount"] = pd.to_numeric(out["amount_txt"], errors="coerce")
    return out[out["amount"].notna()]

book = tidy(inv)
fit = smf.ols("days_late ~ amount", data=book).fit()
print(fit.params.round(4), book.amount.mean())
""", 'out["amount_txt"]'),
)


def test_coerced_drop_that_removes_the_upper_tail_is_high() -> None:
    """Only ~3 % of rows go, but the largest value left is just under 1,000: the failures are
    every amount written with a thousands separator, so the means and totals are biased low."""
    for code, col in _TRUNCATED:
        f = one(run(code, INVOICES), DROPNA)
        assert f.severity == "high" and not f.is_blocking(0.8), code
        assert 0.02 <= f.evidence["values"]["fraction_lost"] < 0.05, code
        assert "just under 1,000" in f.explanation and "biased low" in f.explanation, code
        # the sound twin strips the separator first: nothing fails, nothing to say
        silent(run(code.replace(col, col + '.str.replace(",", "")'), INVOICES))


def test_small_coerced_drop_without_a_cut_at_a_power_of_ten_stays_low() -> None:
    """The same share of unparseable values spread over the whole range ('n/a' entries):
    no sign that the tail went, so no high finding."""
    setup = INVOICES + """
bad = rng.random(n) < 0.034
inv["amount_txt"] = np.where(bad, "n/a", [f"{v:.2f}" for v in value])
"""
    quiet(run(_TRUNCATED[0][0], setup))


# -- inner merges: a result table's empty cells are not a report; 5-10 % lost to a join ----------

# clinic visits and a clinic register that misses the newest clinics (about 7 % of visits);
# a sensor log keyed by zero-padded text ids against a register with unpadded ids
JOINS = """
import numpy as np, pandas as pd
from scipy import stats
import statsmodels.formula.api as smf
rng = np.random.default_rng(71)
n = 2000
cid = rng.integers(0, 60, n)
visits = pd.DataFrame({"clinic": cid, "wait_min": rng.gamma(4, 6, n).round(1),
                       "no_show": (rng.random(n) < 0.1).astype(int)})
register = pd.DataFrame({"clinic": np.arange(56),
                         "county": rng.choice(["north", "south", "east"], 56)})
register_all = pd.DataFrame({"clinic": np.arange(60),
                             "county": rng.choice(["north", "south", "east"], 60)})
ids = np.r_[rng.choice(np.arange(1000, 9999), 20, replace=False), [12, 345, 678, 90, 501, 77]]
log = pd.DataFrame({"sensor": [f"{i:04d}" for i in ids], "pm25": rng.gamma(3, 4, 26).round(1)})
reg = pd.DataFrame({"sensor": [str(i) for i in ids],
                    "zone": np.r_[rng.choice(["urban", "suburb"], 20), ["rural"] * 6]})
"""

_JOIN_LOSS = (
    # pandas method, groupby means
    """
        enriched = visits.merge(register, on="clinic")
        print(enriched.groupby("county").wait_min.mean().round(1))
    """,
    # pd.merge function, a scipy test on the joined rows
    """
        both = pd.merge(visits, register, on="clinic", how="inner")
        north = both.wait_min[both.county == "north"]
        rest = both.wait_min[both.county != "north"]
        print(stats.mannwhitneyu(north, rest))
    """,
    # DataFrame.join(how="inner") on an indexed register, then a statsmodels logit
    """
        d = visits.join(register.set_index("clinic"), on="clinic", how="inner")
        fit = smf.logit("no_show ~ C(county)", data=d).fit(disp=0)
        print(fit.params.round(3), d.no_show.mean())
    """,
)


def test_inner_merge_losing_five_to_ten_percent_is_medium() -> None:
    for code in _JOIN_LOSS:
        f = one(run(code, JOINS), MERGE)
        assert f.severity == "medium" and not f.is_blocking(0.5), code
        assert 0.05 <= f.evidence["values"]["fraction_lost"] < 0.10, code
        assert "selected by their key" in f.explanation, code
        # the complete register loses nothing: silent
        silent(run(code.replace("register,", "register_all,").replace(
            "register.set_index", "register_all.set_index"), JOINS))


def test_inner_merge_loss_counted_stays_quiet() -> None:
    silent(run("""
        enriched = visits.merge(register, on="clinic", how="left", indicator=True)
        print((enriched._merge == "left_only").sum(), "visits without a register entry")
        print(enriched.groupby("county").wait_min.mean().round(1))
    """, JOINS))


def test_table_nan_cells_are_not_a_loss_report() -> None:
    """A result table whose empty groups print `NaN` (a category with no rows left) does not
    say how many rows the merge lost."""
    for code in (
        # pandas: an agg table over zones, the rural zone empty after the join
        """
        m = log.merge(reg, on="sensor")
        m["zone"] = pd.Categorical(m.zone, ["urban", "suburb", "rural"])
        print(m.groupby("zone", observed=False).pm25.agg(["mean", "count"]))
        """,
        # pd.merge + describe of the joined values per zone, unstacked
        """
        m = pd.merge(log, reg, on="sensor")
        m["zone"] = pd.Categorical(m.zone, ["urban", "suburb", "rural"])
        print(m.groupby("zone", observed=False).pm25.mean())
        print("network mean", m.pm25.mean())
        """,
        # a pivot of the joined rows, empty cells NaN
        """
        m = log.merge(reg, on="sensor")
        m["high"] = m.pm25 > 12
        print(m.pivot_table(index="zone", columns="high", values="pm25", aggfunc="mean"))
        """,
    ):
        f = one(run(code, JOINS), MERGE)
        assert f.severity == "high", code
    # ids padded the same way on both sides: nothing lost
    silent(run("""
        reg2 = reg.assign(sensor=reg.sensor.str.zfill(4))
        m = log.merge(reg2, on="sensor")
        m["zone"] = pd.Categorical(m.zone, ["urban", "suburb", "rural"])
        print(m.groupby("zone", observed=False).pm25.agg(["mean", "count"]))
    """, JOINS))


# -- a status filter whose kept rows are only counted is a rate's numerator -------------------

COUNTED = """
import numpy as np, pandas as pd
from scipy import stats
rng = np.random.default_rng(11)
n = 600
book = pd.DataFrame({"policy_id": rng.integers(0, 400, n),
                     "broker": rng.choice(["b1", "b2", "b3"], n),
                     "premium": rng.gamma(2.0, 300.0, n),
                     "status": rng.choice(["renewed", "lapsed", "ok", "failed"], n)})
"""

_COUNTED_SOUND = {
    # pandas: renewed policies per broker over all policies per broker
    "pandas": """
        renewed = book[book.status == "renewed"].groupby("broker").policy_id.nunique()
        rate = renewed / book.groupby("broker").policy_id.nunique()
        print(rate.round(3), rate.mean())
    """,
    # numpy: successful runs per broker as arrays, their share averaged
    "numpy": """
        ok = book[book["status"] == "ok"].groupby("broker").policy_id.nunique().to_numpy()
        pol = book.groupby("broker").policy_id.nunique().to_numpy()
        print(np.round(ok / pol, 3), np.average(ok / pol, weights=pol))
    """,
    # scipy: successes per broker against failures, tested as a contingency table
    "scipy": """
        ok = book.query("status == 'ok'").groupby("broker").size()
        bad = book.query("status == 'failed'").groupby("broker").size()
        print(stats.chi2_contingency(np.c_[ok, bad])[1], ok.sum())
    """,
}

_COUNTED_FLAWED = {
    # the kept rows' values summarised: premiums of renewed policies only
    "pandas": """
        renewed = book[book.status == "renewed"].groupby("broker").premium.mean()
        print(renewed.round(1), renewed.mean())
    """,
    "numpy": """
        kept = book[book["status"] == "ok"]
        print(np.round(np.mean(kept.premium), 1), kept.premium.median())
    """,
    "scipy": """
        ok = book.query("status == 'ok'")
        print(stats.ttest_ind(ok.premium[ok.broker == "b1"], ok.premium[ok.broker == "b2"]))
    """,
}


def test_status_filter_only_counted_is_a_numerator() -> None:
    for idiom, code in _COUNTED_SOUND.items():
        found = run(code, COUNTED)
        quiet(found)
        assert not [f for f in found if f.rule_id == FAILED], (idiom, found)


def test_status_filter_whose_values_are_summarised_still_flagged() -> None:
    for idiom, code in _COUNTED_FLAWED.items():
        f = one(run(code, COUNTED), FAILED)
        assert f.severity in ("medium", "high"), (idiom, f.explanation)


# -- coerced values labelled and counted; a printed statistic is no count --------------------

LAB = """
import numpy as np, pandas as pd
from scipy import stats
import statsmodels.formula.api as smf
rng = np.random.default_rng(5)
n = 300
val = rng.gamma(3.0, 4.0, n)
txt = np.where(val < 4, "<4", val.round(1).astype(str)).astype(object)
txt[rng.random(n) < 0.05] = "clotted"
lab = pd.DataFrame({"site": rng.choice(["north", "south"], n),
                    "shift": rng.choice(["day", "night"], n), "txt": txt})
"""

_LABELLED = {
    # pandas: the coerced NaN labelled with their raw text and cross-tabulated per site
    "pandas": """
        lab["v"] = pd.to_numeric(lab["txt"], errors="coerce")
        lab["result"] = np.where(lab["v"].notna(), "numeric", lab["txt"])
        print(pd.crosstab(lab["site"], lab["result"], margins=True))
        print(lab.groupby("site")["v"].agg(["mean", "median"]))
    """,
    # statsmodels: a parsed flag counted per site before the fit skips the NaN
    "statsmodels": """
        lab["v"] = pd.to_numeric(lab.txt, errors="coerce")
        lab["parsed"] = lab.v.notna()
        print(lab.groupby(["site", "parsed"]).size().unstack())
        print(smf.ols("v ~ C(site)", data=lab).fit().params.round(2))
    """,
    # scipy: a NaN flag mapped to words and counted, then the test on what parsed
    "scipy": """
        lab["v"] = pd.to_numeric(lab.txt, errors="coerce")
        lab["flag"] = lab.v.isna().map({True: "no result", False: "result"})
        print(lab.groupby(["site", "flag"]).size())
        print(stats.mannwhitneyu(lab.v[lab.site == "north"].dropna(),
                                 lab.v[lab.site == "south"].dropna()))
    """,
}


def test_coerced_values_labelled_and_counted_are_reported() -> None:
    for idiom, code in _LABELLED.items():
        found = run(code, LAB)
        quiet(found)
        assert not [f for f in found if f.rule_id == DROPNA], (idiom, found)


def test_counts_of_another_column_do_not_report_the_coerced_values() -> None:
    """The same cells counting an unrelated column (the shift) say nothing of the NaN."""
    for idiom, code in _LABELLED.items():
        code = code.replace('lab["site"], lab["result"]', 'lab["site"], lab["shift"]').replace(
            '["site", "parsed"]', '["site", "shift"]').replace('["site", "flag"]',
                                                               '["site", "shift"]')
        f = one(run(code, LAB), DROPNA)
        assert f.severity in ("medium", "high"), (idiom, f.explanation)


_STAT_LINES = {
    # pandas: a share over a threshold printed under a label that says "rows"
    "pandas": """
        lab["v"] = pd.to_numeric(lab.txt, errors="coerce")
        d = lab.dropna(subset=["v"])
        print(d.groupby("site").v.median())
        print(f"share of rows below 8: {100 * (d.v < 8).mean():.1f} %")
    """,
    # numpy: the mean of a comparison, "kept" in the label
    "numpy": """
        lab["v"] = pd.to_numeric(lab.txt, errors="coerce")
        d = lab.dropna(subset=["v"])
        x = d.v.to_numpy()
        print(f"low results (< 8) among those kept: {np.mean(x < 8):.1%}, "
              f"median {np.median(x):.1f}")
    """,
    # scipy: a p-value under a label that says "failures"
    "scipy": """
        lab["v"] = pd.to_numeric(lab.txt, errors="coerce")
        d = lab.dropna(subset=["v"])
        p = stats.mannwhitneyu(d.v[d.site == "north"], d.v[d.site == "south"]).pvalue
        print(d.groupby("site").v.mean())
        print(f"failures (v < 8), north against south: p = {p:.3f}")
    """,
}


def test_a_printed_statistic_under_a_loss_word_is_not_a_count() -> None:
    for idiom, code in _STAT_LINES.items():
        f = one(run(code, LAB), DROPNA)
        assert f.severity in ("medium", "high"), (idiom, f.explanation)


def test_a_printed_count_of_the_dropped_rows_still_reports_them() -> None:
    for idiom, code in _STAT_LINES.items():
        code = code.rstrip() + '\n        print(f"{len(lab) - len(d)} of {len(lab)} not numeric")'
        found = run(code, LAB)
        quiet(found)
        assert not [f for f in found if f.rule_id == DROPNA], (idiom, found)
