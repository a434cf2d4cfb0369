"""Correlation misuse: a correlation (or a simple linear fit) that cannot mean what it is
read to mean, or a correlation read as something it is not.

Submodules:
- `_scan`: the shared reading of a cell's code (variables, correlation call sites and their
  two samples, correlation-matrix columns, reported text, formula models).
- `_encodings`: which variables hold numeric codes of categories or ranks.
- `codes`: `pearson_on_codes`, `linear_score_on_label_codes`, `ols_on_ordinal_response`.
- `causation`: `causal_language`.
- `coupling`: `shared_denominator`, `part_whole`, `baseline_vs_change`.
- `pooled_groups`: `pooled_across_groups`.
- `time_series`: `autocorrelated_series`.
- `agreement`: `agreement_by_correlation`.
"""

from __future__ import annotations

from .agreement import agreement_by_correlation
from .causation import causal_language
from .codes import linear_score_on_label_codes, ols_on_ordinal_response, pearson_on_codes
from .coupling import baseline_vs_change, part_whole, shared_denominator
from .pooled_groups import pooled_across_groups
from .time_series import autocorrelated_series

RULES = [
    pearson_on_codes,
    causal_language,
    linear_score_on_label_codes,
    ols_on_ordinal_response,
    shared_denominator,
    part_whole,
    pooled_across_groups,
    baseline_vs_change,
    autocorrelated_series,
    agreement_by_correlation,
]

__all__ = [
    "RULES",
    "agreement_by_correlation",
    "autocorrelated_series",
    "baseline_vs_change",
    "causal_language",
    "linear_score_on_label_codes",
    "ols_on_ordinal_response",
    "part_whole",
    "pearson_on_codes",
    "pooled_across_groups",
    "shared_denominator",
]
