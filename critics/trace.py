"""The analysis trace of one reviewed cell, as data: the library operations that actually ran
in the kernel (recorded by the service's kernel-side recorder), their data with row lineage,
and the lineage queries rules ask. Pure: rules read it, nothing here touches a kernel.

An event is a dict: {"op", "line", "cell", ...}. Operations: fit, fit_transform, transform,
predict, score, fit_predict, resample (estimator methods; "est", "est_id", "kind":
model|transformer|search|other, "X", "y", "out"), model_fit (statsmodels; "endog", "exog",
"formula"), split ("X", "outputs" as train/test pairs), cross_validate ("X", "est"), metric
("y", "X", "result"), test ("func", "samples", "names", "pvalue"), correction ("n"),
draw/rng/seed, filter ("method", "n_in", "n_out", "cond", "removed", "kept", "in_ix",
"out_ix"), summary ("method", "cols", "ix"). Data ids ("d12") point into `data`;
`overlap` gives, for evaluated against fitted data, the share of the first's rows that are
rows of the second.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

Event = dict[str, Any]
# a column named in a model term: an identifier that is not a function or module name
# (`np.log1p(visits)` -> visits, `C(region)[T.b]` -> region, `I(x ** 2)` -> x)
_TERM_COLUMN = re.compile(r"[A-Za-z_]\w*(?![\w.(])")
_PRODUCED_BY = ("out", "outputs")
_MODEL_KINDS = {"model", "search"}


@dataclass
class Trace:
    events: list[Event] = field(default_factory=list)  # this cell's, in order
    prior: list[Event] = field(default_factory=list)  # earlier cells' lineage events
    data: dict[str, dict[str, Any]] = field(default_factory=dict)
    overlap: list[list[Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    truncated: bool = False
    seeded: bool = False
    ms: float = 0.0  # CPU time spent recording it, in the kernel

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Trace:
        return cls(events=list(raw.get("events", [])), prior=list(raw.get("prior", [])),
                   data=dict(raw.get("data", {})), overlap=list(raw.get("overlap", [])),
                   errors=list(raw.get("errors", [])), truncated=bool(raw.get("truncated")),
                   seeded=bool(raw.get("seeded")), ms=float(raw.get("ms") or 0.0))

    def to_dict(self) -> dict[str, Any]:
        return {"events": self.events, "prior": self.prior, "data": self.data,
                "overlap": self.overlap, "errors": self.errors, "truncated": self.truncated,
                "seeded": self.seeded, "ms": self.ms}

    @property
    def recorded(self) -> bool:
        return bool(self.events or self.prior)

    def of(self, *ops: str) -> list[Event]:
        return [e for e in self.events if e.get("op") in ops]

    def all_of(self, *ops: str) -> list[Event]:
        return [e for e in self.prior + self.events if e.get("op") in ops]

    def share(self, a: str | None, b: str | None) -> float | None:
        """Share of datum a's rows that are rows of b (None: not measured)."""
        if a is None or b is None:
            return None
        if a == b:
            return 1.0
        for x, y, s in self.overlap:
            if x == a and y == b:
                return float(s)
        return None

    def producer(self, datum: str) -> Event | None:
        """The event whose output is `datum` (a transform, a split, a resampler)."""
        for e in reversed(self.prior + self.events):
            for key in _PRODUCED_BY:
                value = e.get(key)
                if value == datum or (isinstance(value, list) and datum in value):
                    return e
        return None

    def lineage(self, datum: str | None, limit: int = 12) -> Iterator[Event]:
        """The events that produced `datum`, nearest first, back to its root data."""
        seen: set[int] = set()
        while datum and limit:
            e = self.producer(datum)
            if e is None or id(e) in seen:
                return
            seen.add(id(e))
            yield e
            datum, limit = e.get("X"), limit - 1

    def fit_of(self, est_id: Any, before: Event | None = None) -> Event | None:
        """The latest fit of one estimator object (before `before`, when given)."""
        found = None
        for e in self.prior + self.events:
            if e is before:
                break
            if e.get("est_id") == est_id and e.get("op") in ("fit", "fit_transform",
                                                              "fit_predict", "resample"):
                found = e
        return found

    def fit_columns(self, fit: Event) -> tuple[str | None, list[str], int]:
        """(target, feature columns, rows fitted) of one traced fit."""
        if fit.get("op") == "model_fit":
            endog = _TERM_COLUMN.findall(str(fit.get("endog") or ""))
            terms = (re.sub(r"\[.*\]$", "", str(x)) for x in fit.get("exog", []))
            features = [w for term in terms for w in _TERM_COLUMN.findall(term)]
            return (endog[-1] if endog else None), list(dict.fromkeys(features)), \
                int(fit.get("n") or 0)
        x = self.data.get(fit.get("X") or "", {})
        y = self.data.get(fit.get("y") or "", {})
        return y.get("name"), list(x.get("cols", [])), int(x.get("n") or 0)

    def evaluations(self) -> Iterator[tuple[Event, str]]:
        """(event, rows evaluated) for each held-out evaluation of a fitted model: predict or
        score on rows its fit did not see, and every cross-validation (its folds are held
        out from each other)."""
        for e in self.events:
            if e.get("op") == "cross_validate" or (
                    e.get("op") == "fit" and e.get("kind") == "search"):
                if e.get("X"):
                    yield e, e["X"]
                continue
            if e.get("op") not in ("predict", "score") or e.get("kind") not in _MODEL_KINDS:
                continue
            fit = self.fit_of(e.get("est_id"), before=e)
            seen = self.share(e.get("X"), fit.get("X")) if fit else None
            if seen is not None and seen <= 0.1 and e.get("X"):
                yield e, e["X"]
