"""Target leakage seen in what ran: a model's feature that holds its own outcome.

Reads the analysis trace (services/analysis_trace.py). Two rules:
- `feature_computed_from_outcome`: column lineage. The kernel recorded which source columns
  (and at which lags: `shift`, `diff`) each column built by the cell was computed from, so a
  feature computed from the same measurement as the target, at the same time, is a lookup:
  `any_visit = visits > 0` with `usual_visits = mean(visits) per person`, or this quarter's
  4-quarter growth as a predictor of this quarter's growth. A lagged copy is not the outcome.
- `feature_determines_target`: at each fit the kernel measured how well every feature alone
  orders the target (ROC AUC or Spearman's rho on a sample of rows). One feature that alone
  nearly determines the target, among others that do not, is a feature recorded after the
  outcome or computed from it, whatever its name.
Thresholds: critics/trace_rules.toml [target_leakage].
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..evidence import Evidence
from ..findings import Finding
from ..rule import rule
from ..thresholds import section

_FITS = ("fit", "fit_predict", "cross_validate", "model_fit")
Roots = dict[str, set[int]]


@rule("target_leakage.feature_computed_from_outcome",
      title="A feature was computed from the outcome's own measurement")
def feature_computed_from_outcome(ev: Evidence) -> Iterator[Finding]:
    """Reads the trace's column lineage: every source of the target, at the target's own
    time, is also a source of a feature the model used."""
    roots, meta = _lineage(ev)
    seen: set[tuple[str, str]] = set()
    for fit in ev.trace.of(*_FITS):
        target, features, n = ev.trace.fit_columns(fit)
        if not target or not features:
            continue
        troots = roots.get(target, {target: {0}})
        for feat in features:
            froots = roots.get(feat, {feat: {0}})
            agg, rows = meta.get(feat, (False, 0))
            if feat in froots or (target, feat) in seen or not _covers(froots, troots):
                continue  # a column as recorded (not built) is where simulations start
            if agg and (target in froots or (rows <= n and fit["op"] != "cross_validate")):
                continue  # the aggregate rule's case, or learned on the fitted rows only
            seen.add((target, feat))
            yield _lineage_finding(fit, target, feat, sorted(troots))


def _lineage(ev: Evidence) -> tuple[dict[str, Roots], dict[str, tuple[bool, int]]]:
    """Each built column's root columns with the lags it read them at (transitively), and
    whether it is an aggregate over how many rows."""
    roots: dict[str, Roots] = {}
    meta: dict[str, tuple[bool, int]] = {}
    for e in ev.trace.all_of("derive"):
        col = e.get("column")
        if not col:
            continue
        lags = e.get("lags") or {c: [0] for c in e.get("from", [])}
        found: Roots = {}
        for c, xs in lags.items():
            for root, ys in roots.get(c, {c: {0}}).items():
                found.setdefault(root, set()).update(x + y for x in xs for y in ys)
        roots[col] = found
        meta[col] = (bool(e.get("agg")), int(e.get("n") or 0))
    return roots, meta


def _covers(feature: Roots, target: Roots) -> bool:
    """The feature read every source of the target at the target's newest time."""
    return bool(target) and all(min(lags) in feature.get(root, set())
                                for root, lags in target.items() if lags)


def _lineage_finding(fit: dict[str, Any], target: str, feat: str,
                     sources: list[str]) -> Finding:
    return Finding(
        explanation=(f"Feature {feat!r} was computed from {', '.join(map(repr, sources))}, "
                     f"the same measurement the target {target!r} was built from, at the "
                     f"same time; the model on line {fit.get('line')} predicts the outcome "
                     "from a copy of it, so its fit and scores say nothing about prediction."),
        severity="critical", confidence=0.85,
        evidence={"lines": [x for x in [fit.get("line")] if isinstance(x, int)],
                  "values": {"feature": feat, "target": target, "sources": sources}},
        suggestion="Use only information available before the outcome: lag the measurement "
                   "(`.shift(1)`), compute per-unit aggregates from earlier periods or training "
                   "rows only, or drop the feature.")


@rule("target_leakage.feature_determines_target",
      title="One feature alone nearly determines the target")
def feature_determines_target(ev: Evidence) -> Iterator[Finding]:
    """Reads the association the kernel measured at each fit: the strongest feature alone
    orders the target almost perfectly while the next one is far weaker."""
    cfg = section("target_leakage")
    runner_up = float(cfg["runner_up_below"])
    reported: set[str] = set()
    for fit, assoc, top in _measured_fits(ev):
        if top[0][0] in reported:
            continue
        second = top[1][1] if len(top) > 1 else 0.0
        if top[0][1] < float(cfg["determines_" + str(assoc.get("kind"))]) or \
                second >= runner_up:
            continue
        reported.add(top[0][0])
        yield _determines_finding(fit, assoc, top[0])


def _measured_fits(ev: Evidence) -> Iterator[tuple[dict[str, Any], dict[str, Any], list[Any]]]:
    """(fit, association, strongest features) of each fit the kernel measured with at least
    two features (one feature alone is the whole model: nothing to single out)."""
    for fit in ev.trace.of(*_FITS):
        assoc = fit.get("assoc") or {}
        top = assoc.get("top") or []
        if int(assoc.get("features") or 0) >= 2 and top:
            yield fit, assoc, top


def _determines_finding(fit: dict[str, Any], assoc: dict[str, Any], top: list[Any]) -> Finding:
    what = "ROC AUC" if assoc.get("kind") == "auc" else "|Spearman rho|"
    return Finding(
        explanation=(f"Feature {top[0]!r} alone orders the target almost perfectly ({what} "
                     f"{top[1]:.3f} on {assoc.get('rows')} rows) in the model on line "
                     f"{fit.get('line')}, while no other feature comes close. A feature that "
                     "good is usually recorded after the outcome or computed from it; the "
                     "reported performance then cannot be had when predicting."),
        severity="high", confidence=0.6,
        evidence={"lines": [x for x in [fit.get("line")] if isinstance(x, int)],
                  "values": {"feature": top[0], "strength": top[1], "measure": what}},
        suggestion="Check when this feature becomes known; keep only what is available at "
                   "the time of prediction, and report the model without it.")


@rule("target_leakage.feature_dominates_target",
      title="One feature alone separates the classes far better than every other")
def feature_dominates_target(ev: Evidence) -> Iterator[Finding]:
    """Reads the association the kernel measured at each fit of a two-valued target: the
    strongest feature reaches a high ROC AUC and leads the next one by a wide margin. Weaker
    evidence than `feature_determines_target` (medium): real predictors sometimes lead too."""
    cfg = section("target_leakage")
    bar, gap = float(cfg["dominates_auc"]), float(cfg["dominates_gap"])
    reported: set[str] = set()
    for fit, assoc, top in _measured_fits(ev):
        if assoc.get("kind") != "auc":
            continue
        best, second = top[0], (top[1][1] if len(top) > 1 else 0.5)
        if best[0] in reported or best[1] < bar or best[1] - second < gap or \
                best[1] >= float(cfg["determines_auc"]):
            continue
        reported.add(best[0])
        yield Finding(
            explanation=(f"Feature {best[0]!r} alone separates the classes with ROC AUC "
                         f"{best[1]:.2f} in the model on line {fit.get('line')}, far ahead of "
                         f"the next feature ({second:.2f}). Check that it is known before the "
                         "outcome: a feature recorded after it (a treatment given because of "
                         "it, a count that grows with it) looks exactly like this."),
            severity="medium", confidence=0.5,
            evidence={"lines": [x for x in [fit.get("line")] if isinstance(x, int)],
                      "values": {"feature": best[0], "auc": best[1], "next": second}},
            suggestion="Confirm when the feature is recorded; if after the outcome, drop it "
                       "and report the model without it.")


@rule("target_leakage.feature_set_for_one_class",
      title="A feature has one value for (almost) every row of one class")
def feature_set_for_one_class(ev: Evidence) -> Iterator[Finding]:
    """Reads the association the kernel measured at each fit of a two-valued target: a
    feature that is one value (0, a sentinel, missing) for >= 95 % of one class and for at most
    half of the other is a record that exists once the outcome happened."""
    reported: set[str] = set()
    for fit, assoc, _ in _measured_fits(ev):
        for name in assoc.get("one_class") or []:
            if name in reported:
                continue
            reported.add(name)
            yield Finding(
                explanation=(f"Feature {name!r} has one value for almost every row of one class "
                             f"of the target in the model on line {fit.get('line')}, a value most "
                             "rows of the other class do not have: it looks like a field recorded "
                             "only once the outcome happened (a cancellation date, a refund, a "
                             "follow-up count), so the model reads the answer from it."),
                severity="high", confidence=0.6,
                evidence={"lines": [x for x in [fit.get("line")] if isinstance(x, int)],
                          "values": {"feature": name}},
                suggestion="Check when this field is filled in; if only after the outcome, drop "
                           "it and report the model without it.")


RULES = [feature_computed_from_outcome, feature_determines_target, feature_dominates_target,
         feature_set_for_one_class]
