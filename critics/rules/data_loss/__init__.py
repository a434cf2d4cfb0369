"""Rows silently lost before a summary: missing values dropped (`dropna`, `notna` masks,
`to_numeric(errors="coerce")` then dropna or a NaN-skipping mean), failed runs filtered out
(`df[df.status == "ok"]`, `~df.failed`, `query("status == 'success'")`), inner merges that
lose unmatched rows, deduplication on a key coarser than a record (`drop_duplicates(
subset="customer_id")` on orders), dates or numbers coerced to NaT/NaN that a resample,
groupby or mean in the same chain then skips, and then a mean / describe / groupby / test on
what is left, with nothing in the cell saying how many rows went.

How many rows went comes from the kernel: the shape of a name filtered in place read before
the cell ran (`ev.before`) against after; the raw and the cleaned frame when both are named;
the source frame's NaN counts. "Reported" means the cell prints, displays, logs or asserts a
count (len/shape before and after, `isna().sum()`, `value_counts()` of the status, a message
with the number removed), or its output says so.

Submodules: `_scan` (the vocabularies, `_Drop`, the drop sites `_Sites` and the AST helpers
the rules share), `_context` (`_Ctx`, one per Evidence), `_loss` (how many rows a drop
removed), `row_drops` (silent_dropna, failed_rows_filtered, inner_merge_loss),
`nan_group_keys`, `bad_lines`, `dedupe`, `nan_skipping` (log_of_zero_dropped,
nan_comparison_filter, nan_skipping_aggregate), `filter_spellings`, `bins`, `formulas`.
"""

from __future__ import annotations

from .bad_lines import bad_lines_skipped
from .bins import bins_exclude_values
from .dedupe import dedupe_wrong_key
from .filter_spellings import filter_misses_spellings
from .formulas import formula_drops_missing
from .nan_group_keys import groupby_drops_nan_keys
from .nan_skipping import log_of_zero_dropped, nan_comparison_filter, nan_skipping_aggregate
from .row_drops import failed_rows_filtered, inner_merge_loss, silent_dropna

RULES = [
    silent_dropna,
    failed_rows_filtered,
    inner_merge_loss,
    groupby_drops_nan_keys,
    bad_lines_skipped,
    dedupe_wrong_key,
    log_of_zero_dropped,
    nan_comparison_filter,
    nan_skipping_aggregate,
    filter_misses_spellings,
    bins_exclude_values,
    formula_drops_missing,
]
