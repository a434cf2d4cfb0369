"""Impossible or suspicious values in a cell's results.

Impossible (critical): a p-value above 1 or below 0 (typically a hand-rolled Bonferroni
`p * n` that was never clipped), a negative variance or standard deviation, a correlation
outside [-1, 1], a probability or bounded score (accuracy, AUC, F1, precision, recall, R²)
outside its range. Suspicious: a score of exactly 1.0 (evaluation on the training data or a
leak), a negative R² (the model is worse than predicting the mean).

Values come from two places: the kernel's facts (scalars and short sequences whose name or
origin says what they are, result objects' `pvalue`/`rsquared`) and the text the user saw
(labelled numbers such as "R2: -0.31" or "p = 1.7", bracketed lists after a label, pandas
Series footers "Name: p_adj" and table columns). A printed label is tied back to the code
that printed it (print arguments, f-string fields, `.format`/`%` placeholders) so that a
generic label ("score") or a bare one ("p", "r") is trusted only when the code confirms it,
and so that `clf.score(X_train, y_train)` is known to be a training score.

Submodules:
    _vocabulary   which quantity a name / call / label stands for; token sets; small helpers
    _code         reading the cell's code: `_Code` (origins), `CellIndex`, prior fits
    _text         reading printed text: labelled numbers, Series footers, tables, print sites
    _scan         every observed value gathered once per evidence; shared range check
    ranges        p-value, variance, correlation, probability and reliability out of range
    scores        perfect score, negative R², percentage error blow-up
    two_sided_p   two-sided p from a signed statistic without abs()
    over_100      shares and proportions above 100 %
    nonnegative   negative durations / ages and negative physical quantities
    sentinels     sentinel / placeholder codes summarised as real values
    lpm           linear probability model predictions outside [0, 1]
"""

from __future__ import annotations

from ._code import CellIndex as CellIndex
from ._code import cell_index as cell_index
from ._text import _column_in_text as _column_in_text
from .lpm import lpm_probability_out_of_range
from .nonnegative import negative_duration, negative_physical_quantity
from .over_100 import factor_over_100, proportion_over_100, share_over_100
from .ranges import (
    correlation_out_of_range,
    negative_variance,
    probability_out_of_range,
    pvalue_out_of_range,
    reliability_out_of_range,
)
from .scores import negative_r2, percentage_error_blowup, perfect_score
from .sentinels import sentinel_code_in_summary
from .two_sided_p import two_sided_p_without_abs

RULES = [
    pvalue_out_of_range,
    negative_variance,
    correlation_out_of_range,
    probability_out_of_range,
    perfect_score,
    negative_r2,
    percentage_error_blowup,
    two_sided_p_without_abs,
    share_over_100,
    negative_duration,
    proportion_over_100,
    factor_over_100,
    negative_physical_quantity,
    sentinel_code_in_summary,
    lpm_probability_out_of_range,
    reliability_out_of_range,
]
