"""Correlations pooled across groups (Simpson's paradox, ecological correlation).

- `pooled_across_groups`: a correlation or slope on rows pooled across groups (products,
  schools, sites) that explain most of both variables, reversing the within-group relation
  (Simpson's paradox) or carrying all of it (an ecological correlation), read from the
  kernel's within/between split of the pair along the source frame's grouping columns.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from ...ast_cache import walk as _walk
from ...evidence import Evidence
from ...findings import Finding
from ...rule import rule
from .. import _columns
from ._scan import _POOLED_NAMES

# -- a correlation / slope pooled across groups that carry both variables (Simpson) -------------

_SLOPES = {"linregress", "np.polyfit"}
# what, next to a `groupby(g)` in one statement, makes it a per-group analysis or demeaning
_PER_GROUP = re.compile(r"corr|cov|apply|transform|pearsonr|spearmanr|kendalltau|linregress|"
                        r"polyfit|ols|OLS|regress|slope|demean")
# keywords that put a grouping into a model (random effects, covariates, clusters, absorbed
# fixed effects)
_GROUP_KWARGS = {"groups", "covar", "x_covar", "y_covar", "absorb", "entity_effects",
                 "cluster", "clusters", "fe", "fixed_effects", "re_formula", "vc_formula"}


def _names_column(ev: Evidence, node: ast.AST | None, col: str) -> bool:
    """The expression names column `col`: "col", ["col", ...], df.col, df["col"], or a
    variable bound to such a literal."""
    if node is None:
        return False
    for sub in _walk(node):
        if isinstance(sub, ast.Constant) and sub.value == col:
            return True
        if isinstance(sub, ast.Attribute) and sub.attr == col:
            return True
        if isinstance(sub, ast.Name):
            bound = _columns.literal_assignment(ev, sub.id)
            if bound is not None and bound is not node and any(
                    isinstance(b, ast.Constant) and b.value == col for b in _walk(bound)):
                return True
    return False


def _controls_for(ev: Evidence, col: str) -> str | None:
    """How the cell already takes grouping `col` into account, if it does: correlations,
    fits or demeaning per group, a fixed effect / covariate in a model formula, a grouping
    in a mixed model or partial correlation, dummies of it."""
    m = ev.model
    term = re.compile(rf"(?:C\(\s*{re.escape(col)}\b|(?<![\w.]){re.escape(col)}(?![\w(]))")
    for node in _walk(m.tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                "~" in node.value and term.search(node.value.split("~", 1)[1]):
            return "a model formula with it as a term"
    loops = [n.iter for n in _walk(m.tree) if isinstance(n, ast.For | ast.AsyncFor)] + [
        g.iter for n in _walk(m.tree)
        if isinstance(n, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp)
        for g in n.generators]
    for c in m.calls:
        by_col = c.last == "groupby" and c.receiver is not None and (
            _names_column(ev, c.arg(0, "by"), col) or _names_column(ev, c.kwarg("level"), col))
        if by_col and (_PER_GROUP.search(ev.source_of(c.stmt)) or any(
                any(n is c.node for n in _walk(it)) for it in loops)):
            return "a per-group analysis (`groupby`)"
        if c.last == "get_dummies" and any(_names_column(ev, a, col) for a in (
                *c.node.args, *(k.value for k in c.node.keywords))):
            return "dummies of it in a model"
        for k in c.node.keywords:
            if k.arg in _GROUP_KWARGS and _names_column(ev, k.value, col):
                return f"`{k.arg}=` in `{c.last}`"
        if c.last in ("partial_corr", "pcorr", "partial_correlation") and any(
                _names_column(ev, a, col) for a in c.node.args):
            return "a partial correlation"
    return None


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


@rule("correlation_misuse.pooled_across_groups",
      title="Correlation or slope pooled across groups that reverse it (Simpson's paradox)")
def pooled_across_groups(ev: Evidence) -> Iterator[Finding]:
    """A correlation or straight-line slope computed on rows pooled across groups
    (categories, sites, products, schools) when the grouping explains most of the variance
    of both variables and the relation within the groups has the opposite sign: the pooled
    coefficient describes how the group means line up, not how y moves with x, and its sign
    is the reverse of what happens inside every group (Simpson's paradox). From the
    kernel's split of the pair along the source frame's grouping columns. High (0.75) for
    a reversal (|pooled r| >= 0.2, within-group r of the opposite sign with |r| >= 0.2,
    and the groups explain >= 50% of a variable's variance or most groups' own r is of the
    opposite sign); medium (0.5) for an ecological correlation (|pooled r| >= 0.4 carried
    by the group means while |within-group r| < 0.1). Quiet when the cell analyses the
    same grouping (per-group correlations, demeaning, a fixed effect `C(g)`, a mixed
    model's `groups=`, a partial correlation)."""
    if ev.tree is None or not any(s.groups for s in ev.samples):
        return
    per_call: dict[tuple[str, int], dict[str, dict]] = {}
    exprs: dict[tuple[str, int], dict[int | str, str]] = {}
    for s in ev.samples:
        if s.groups and s.call in _POOLED_NAMES:
            per_call.setdefault((s.call, s.line), s.groups)
            exprs.setdefault((s.call, s.line), {})[s.arg] = s.expr
    rank = {"high": 1, "medium": 0}
    best: dict[str, tuple[tuple[int, float], str, float, dict, tuple[str, int]]] = {}
    calls: dict[str, list[tuple[str, int]]] = {}
    for key, groups in per_call.items():
        for col, g in groups.items():
            r, w = g.get("r"), g.get("within_r")
            if r is None or w is None:
                continue
            eta = max(g.get("eta2_x") or 0.0, g.get("eta2_y") or 0.0)
            pos, neg = g.get("pos_groups") or 0, g.get("neg_groups") or 0
            opposite = neg if r > 0 else pos
            signed = pos + neg
            if abs(r) >= 0.2 and _sign(w) == -_sign(r) and abs(w) >= 0.2 and (
                    eta >= 0.5 or (signed >= 3 and opposite >= 2 / 3 * signed)):
                severity, confidence = "high", 0.75
            elif abs(r) >= 0.4 and abs(w) < 0.1 and eta >= 0.5:
                severity, confidence = "medium", 0.5
            else:
                continue
            order = (rank[severity], abs(w))
            calls.setdefault(col, []).append(key)
            if col not in best or order > best[col][0]:
                best[col] = (order, severity, confidence, g, key)
    best = {c: v for c, v in best.items() if _controls_for(ev, c) is None}
    if not best:
        return
    col, (_, severity, confidence, g, key) = max(best.items(), key=lambda kv: kv[1][0])
    others = [c for c in best if c != col]
    calls_of = calls[col]
    xy = exprs.get(key, {})
    x_name = xy.get(0, xy.get("x", "x"))
    y_name = xy.get(1, xy.get("y", "y"))
    lines = sorted({ln for _, ln in calls_of})
    names = list(dict.fromkeys(_POOLED_NAMES[c] for c, _ in calls_of))
    slope = any(n in _SLOPES for n in names)
    r, w = g["r"], g["within_r"]
    what = " and ".join(f"`{n}`" for n in names)
    share = (f"`{col}` ({g['n_groups']} groups) explains {g['eta2_x']:.0%} of the "
             f"variance of `{x_name}` and {g['eta2_y']:.0%} of `{y_name}`")
    between = (f"; the group means correlate at r = {g['between_r']:+.2f}"
               if g.get("between_r") is not None else "")
    signs = (f" ({g['neg_groups'] if r > 0 else g['pos_groups']} of "
             f"{g['pos_groups'] + g['neg_groups']} groups have their own r "
             f"{'negative' if r > 0 else 'positive'})" if g['pos_groups'] + g['neg_groups']
             else "")
    if severity == "high":
        meaning = (f"the pooled r = {r:+.2f} over {g['n']} rows, but within `{col}` r = "
                   f"{w:+.2f}{signs}: {share}{between}. The pooled "
                   f"{'slope' if slope else 'coefficient'} describes how the groups' "
                   "levels line up, and its sign is the reverse of the relation inside the "
                   "groups (Simpson's paradox)")
    else:
        meaning = (f"the pooled r = {r:+.2f} over {g['n']} rows, but within `{col}` r = "
                   f"{w:+.2f}: {share}{between}. The association is carried by differences "
                   "between the groups (an ecological correlation), not by how the "
                   "variables move together within a group")
    if others:
        meaning += f" (also along {', '.join(f'`{c}`' for c in others[:3])})"
    yield Finding(
        explanation=(f"{what} (line{'s' if len(lines) > 1 else ''} "
                     f"{', '.join(map(str, lines))}) pool{'s' if len(names) == 1 else ''} "
                     f"rows across the groups of `{col}`: {meaning}."),
        severity=severity, confidence=confidence,
        evidence={"lines": lines, "values": {
            "group": col, "pooled_r": r, "within_r": w, "between_r": g.get("between_r"),
            "eta2_x": g["eta2_x"], "eta2_y": g["eta2_y"], "n_groups": g["n_groups"],
            "pos_groups": g["pos_groups"], "neg_groups": g["neg_groups"]}},
        suggestion=(f"Analyse the relation within `{col}`: demean both variables per group "
                    f"(`df[cols] - df.groupby('{col}')[cols].transform('mean')`) before the "
                    f"correlation/fit, fit a fixed-effects model (`smf.ols('y ~ x + "
                    f"C({col})', data=df)`) or a mixed model (`smf.mixedlm(..., "
                    f"groups=df['{col}'])`), or report the per-group coefficients; keep the "
                    "pooled figure only as an explicit between-group comparison."),
    )
