"""Evidence about one executed cell: a plain data object, so rules can be unit-tested
without a kernel. `services` fills it from the execution and a silent kernel introspection;
the field names of `ObjectFacts` and `SampleFacts` are the keys that introspection returns."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .trace import Trace

if TYPE_CHECKING:
    from .code_model import CodeModel


def _from_dict(cls: type, data: dict[str, Any]) -> Any:
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in data.items() if k in names})


@dataclass
class ObjectFacts:
    """What the kernel says about one object the cell created or used."""

    name: str
    type: str = ""  # qualified, e.g. "pandas.DataFrame", "sklearn.preprocessing.StandardScaler"
    kind: str = "other"  # dataframe|series|ndarray|scalar|estimator|module|callable|sequence|other
    qualname: str | None = None  # modules, classes, functions: "scipy.stats", "numpy.mean"
    shape: list[int] | None = None
    length: int | None = None
    dtypes: dict[str, str] = field(default_factory=dict)  # column -> dtype; "" for a Series/array
    missing: dict[str, int] = field(default_factory=dict)  # column -> NaN count
    unique: dict[str, int] = field(default_factory=dict)  # column -> distinct values
    value: float | int | str | bool | None = None  # scalars (numbers, short strings)
    values: list[float] | None = None  # short numeric sequences (e.g. a list of p-values)
    fitted: bool | None = None  # estimators: has fitted attributes
    fitted_on: dict[str, Any] = field(default_factory=dict)  # n_features_in_, feature_names_in_…
    params: dict[str, Any] = field(default_factory=dict)  # estimators: random_state etc.
    # frames: the levels (value -> rows) of text/categorical columns with <= 30 distinct
    # values, and [min, max] of numeric columns
    levels: dict[str, dict[str, int]] = field(default_factory=dict)
    ranges: dict[str, list[float]] = field(default_factory=dict)
    # frames (numeric columns) and numeric Series (key ""): {column: {"top": [[value, rows],
    # ...3], "bottom": [...3], "q": [q05, q50, q95], "step": s}}, the 3 largest and smallest
    # distinct values with their rows, read on every s-th row (<= 2,000 rows): the extremes
    # are the exact min/max, counted over every row when a whole number set apart from the
    # rest (a possible placeholder code); other rows and the quantiles are estimates (x s)
    tails: dict[str, dict[str, Any]] = field(default_factory=dict)
    # frames: grouping columns nested in coarser ones, {A: {"levels", "rows", "min_rows",
    # "within": {B: levels of B}}} when every level of A occurs with one level of B only
    # (stands within treatments); text/categorical/bool/integer columns of 2..200 levels
    nesting: dict[str, dict[str, Any]] = field(default_factory=dict)
    # frames: where the missing values sit, {column with NaN: {grouping column (one listed in
    # `levels`): {level: NaN rows}}}, for up to 5 such columns and 5 grouping columns
    missing_by: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ObjectFacts:
        return _from_dict(cls, data)

    @property
    def rows(self) -> int | None:
        if self.shape:
            return self.shape[0]
        return self.length


@dataclass
class SampleFacts:
    """A numeric sample passed to a statistical test, re-read (side-effect free) after the
    cell ran: `scipy.stats.ttest_ind(a[a.g == 1].x, b)` gives one SampleFacts per argument."""

    call: str  # resolved test function, e.g. "scipy.stats.ttest_ind"
    line: int
    arg: int | str  # position or keyword
    expr: str
    n: int = 0
    n_unique: int = 0
    missing: int = 0
    integer_valued: bool = False
    mean: float | None = None
    std: float | None = None
    min: float | None = None
    max: float | None = None
    skew: float | None = None
    normal_p: float | None = None  # Shapiro-Wilk p-value (3 <= n <= 5000)
    # order: lag-1 autocorrelation in the order given (None when sorted or n < 12); for a
    # pandas sample with an increasing integer/time index, its contiguous runs of rows
    lag1: float | None = None
    runs: int | None = None
    # (x, y) samples of linregress / pearsonr (both samples carry the same values): the
    # largest Cook's distance of either straight-line fit, that point's leverage and
    # (x, y), Pearson r and p with all points and without that one, Spearman rho and p
    pair_r: float | None = None
    pair_p: float | None = None
    cooks_max: float | None = None
    leverage_max: float | None = None
    influential: list[float] | None = None
    drop_r: float | None = None
    drop_p: float | None = None
    rank_r: float | None = None
    rank_p: float | None = None
    # (x, y) samples of a correlation or straight-line fit read from one DataFrame: for up to
    # 3 grouping columns of that frame (text/categorical/bool, or integer ids with >= 3 rows
    # per level), {column: {r, n, within_r, between_r, eta2_x, eta2_y, n_groups,
    # pos_groups, neg_groups}}: the pooled r, r of the group-demeaned values, r of the
    # group means, the share of each variable's variance the groups explain, and the
    # number of groups whose own r is positive / negative (on <= 5,000 rows)
    groups: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SampleFacts:
        return _from_dict(cls, data)


@dataclass
class WarningRecord:
    category: str  # "RuntimeWarning", "ConvergenceWarning", …
    message: str


_WARNING_RE = re.compile(r"^(?:.*?:\d+: )?(\w*Warning): (.*)$", re.MULTILINE)


@dataclass
class Evidence:
    code: str
    outputs: list[dict[str, Any]] = field(default_factory=list)  # nbformat v4 outputs
    objects: dict[str, ObjectFacts] = field(default_factory=dict)  # after the cell ran
    before: dict[str, ObjectFacts] = field(default_factory=dict)  # names the cell filters,
    # read before it ran (rows before/after filtering)
    samples: list[SampleFacts] = field(default_factory=list)
    prior_code: str = ""  # the notebook's earlier code cells (imports, data loading)
    trace: Trace = field(default_factory=Trace)  # what ran in the kernel (critics/trace.py)
    introspection_error: str | None = None
    introspection_ms: float = 0.0

    # -- derived views (computed once) ---------------------------------------------------

    @cached_property
    def tree(self) -> ast.Module | None:
        try:
            return ast.parse(self.code)
        except SyntaxError:
            return None

    @cached_property
    def model(self) -> CodeModel:
        from .code_model import CodeModel

        return CodeModel(self)

    @cached_property
    def lines(self) -> list[str]:
        return self.code.splitlines()

    def source_of(self, node: ast.AST) -> str:
        """Source text of a node of `tree` (columns are UTF-8 byte offsets, as ast gives)."""
        try:
            first, last = node.lineno - 1, node.end_lineno - 1  # type: ignore[attr-defined]
            start, end = node.col_offset, node.end_col_offset  # type: ignore[attr-defined]
            lines = self.lines
            if first == last:
                return lines[first].encode()[start:end].decode()
            return "\n".join([lines[first].encode()[start:].decode(), *lines[first + 1:last],
                              lines[last].encode()[:end].decode()])
        except (AttributeError, IndexError, TypeError, UnicodeDecodeError):
            return ast.unparse(node)

    @cached_property
    def stdout(self) -> str:
        return "".join(o.get("text", "") for o in self.outputs
                       if o.get("output_type") == "stream" and o.get("name") == "stdout")

    @cached_property
    def stderr(self) -> str:
        return "".join(o.get("text", "") for o in self.outputs
                       if o.get("output_type") == "stream" and o.get("name") == "stderr")

    @cached_property
    def text(self) -> str:
        """Everything the user saw as text: stdout and text/plain results and displays."""
        parts = [self.stdout]
        for o in self.outputs:
            data = o.get("data") or {}
            plain = data.get("text/plain")
            if plain:
                parts.append(plain if isinstance(plain, str) else "".join(plain))
        return "\n".join(p for p in parts if p)

    @cached_property
    def html_count(self) -> int:
        return sum(1 for o in self.outputs if "text/html" in (o.get("data") or {}))

    @cached_property
    def image_count(self) -> int:
        return sum(1 for o in self.outputs
                   if any(k.startswith("image/") for k in (o.get("data") or {})))

    @cached_property
    def warnings(self) -> list[WarningRecord]:
        return [WarningRecord(m.group(1), m.group(2).strip())
                for m in _WARNING_RE.finditer(self.stderr)]

    def line(self, number: int) -> str:
        """Source of a 1-based line of the cell ('' when out of range)."""
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""

    # -- serialisation (evidence travels between kernel, service and the bench) -----------

    def to_dict(self) -> dict[str, Any]:
        from dataclasses import asdict

        return {
            "code": self.code, "outputs": self.outputs, "prior_code": self.prior_code,
            "objects": {k: asdict(v) for k, v in self.objects.items()},
            "before": {k: asdict(v) for k, v in self.before.items()},
            "samples": [asdict(s) for s in self.samples],
            "trace": self.trace.to_dict(),
            "introspection_error": self.introspection_error,
            "introspection_ms": self.introspection_ms,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Evidence:
        return cls(
            code=data["code"], outputs=data.get("outputs", []),
            prior_code=data.get("prior_code", ""),
            objects={k: ObjectFacts.from_dict(v) for k, v in data.get("objects", {}).items()},
            before={k: ObjectFacts.from_dict(v) for k, v in data.get("before", {}).items()},
            samples=[SampleFacts.from_dict(s) for s in data.get("samples", [])],
            trace=Trace.from_dict(data.get("trace") or {}),
            introspection_error=data.get("introspection_error"),
            introspection_ms=data.get("introspection_ms", 0.0),
        )
