"""Correlation worded as causation.

- `causal_language`: a correlation reported as causation ("X drives Y", "leads to").
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from ...code_model import CallSite
from ...evidence import Evidence
from ...findings import Finding
from ...rule import rule
from ._scan import _FORMULA_MODELS, _reported_strings

_CAUSAL = re.compile(
    r"(?i)\b(?:causes?|caused|causing|leads?\s+to|led\s+to|drives?|driving|drove|"
    r"(?<=\w\s)results?\s+in|resulting\s+in|is\s+responsible\s+for|"
    r"(?:the\s+)?(?:causal\s+)?effect\s+of\s+\w+\s+on|impact\s+of\s+\w+\s+on|"
    r"(?:will|would)\s+(?:increase|decrease|raise|lower|reduce|improve|boost)|"
    r"makes?\s+(?:people|customers|users|patients|students)|boosts?|"
    r"(?<!as\s)(?:reduces|lowers|raises|improves|prevents|hurts|harms|protects\s+against)|"
    r"increasing\s+\w+\s+(?:will|would)|if\s+we\s+(?:increase|raise|cut|reduce)|"
    # a per-unit slope read as an intervention: "each extra driver adds 0.4 late drops",
    # "every additional hour of tutoring raises the score by 2 points"
    # "each new microservice adds ...", "each +1pp of telematics share cuts ..."
    r"(?:(?:each|every|one|an?)\s+(?:extra|additional|more|further|new)\s+|"
    r"(?:each|every)\s+\+\s*\d[\w.,%]*\s+(?:of\s+)?)(?:[\w-]+\s+){0,4}?"
    r"(?:adds?|causes?|creates?|generates?|costs?|saves?|brings?|buys?|increases?|decreases?|"
    r"raises?|lowers?|cuts?|reduces?|removes?|prevents?|produces?)|"
    # a change to X that "should / will / would" change Y: "trimming the roster by 3
    # drivers should save ~12 a day", "cutting prices would lift sales"
    r"(?:trimming|cutting|reducing|increasing|adding|removing|raising|lowering|doubling|"
    r"halving|hiring|dropping)\s+(?:[^.;:\n]{0,60}?)\b(?:should|will|would|could)\s+"
    r"(?:save|cut|reduce|increase|add|lower|raise|improve|prevent|lift|boost|avoid|"
    r"remove|eliminate|bring)|"
    r"\bbecause\s+(?:there\s+(?:are|were|is)\s+)?(?:more|fewer|less|higher|lower)\s+\w+)\b")
_HEDGE = re.compile(
    r"(?i)not\s+(?:imply|necessarily|mean|prove|establish)\s+caus|causation|not\s+causal|"
    r"correlation\s+(?:is\s+)?not|no\s+causal|cannot\s+(?:infer|conclude)|"
    r"observational|confound|association\s+only|only\s+an?\s+association|"
    r"no\s+evidence\s+(?:here\s+)?(?:that|of)|cannot\s+attribute")
_CORR_CALLS = ("pearsonr", "spearmanr", "kendalltau", "pointbiserialr", "corrcoef",
               "linregress", "corr", "corrwith", "polyfit")


def _bivariate_model(c: CallSite) -> bool:
    """`smf.ols("y ~ x", df)`: a statsmodels formula with one regressor, i.e. a simple
    regression — a correlation in another form. A model with covariates (an adjusted
    estimate) is not."""
    if c.last not in _FORMULA_MODELS or not c.name or "statsmodels" not in c.name:
        return False
    f = c.kwarg("formula") or (c.node.args[0] if c.node.args else None)
    if not (isinstance(f, ast.Constant) and isinstance(f.value, str)) or "~" not in f.value:
        return False
    rhs = f.value.split("~", 1)[1]
    terms = [t for t in re.split(r"[+*:]", rhs) if t.strip() and t.strip() not in ("1", "0")]
    return len(terms) == 1


@rule("correlation_misuse.causal_language",
      title="Correlation reported as causation")
def causal_language(ev: Evidence) -> Iterator[Finding]:
    """A cell that computes a correlation and words the result causally."""
    if ev.tree is None:
        return
    m = ev.model
    corr = [c for c in m.calls if (c.last in _CORR_CALLS and (
        c.last != "corr" or c.receiver is not None)) or _bivariate_model(c)]
    if not corr:
        return
    texts = _reported_strings(ev)
    out_text = ev.text
    if _HEDGE.search(out_text) or any(_HEDGE.search(t) for _, t in texts):
        return
    found: list[tuple[int | None, str]] = []
    for line, t in texts:
        mt = _CAUSAL.search(t)
        if mt:
            found.append((line, t.strip()))
    output_hit = _CAUSAL.search(out_text)
    if not found and not output_hit:
        return
    if output_hit:
        start = max(0, output_hit.start() - 60)
        quote = out_text[start:output_hit.end() + 60].strip().splitlines()
        quote_txt = next((q for q in quote if output_hit.group(0) in q), quote[0] if quote
                         else output_hit.group(0))
    else:
        quote_txt = found[0][1]
    lines = sorted({ln for ln, _ in found if ln} | {corr[0].line})
    yield Finding(
        explanation=(f"The cell computes a correlation (line {corr[0].line}) and reports it in "
                     f"causal terms: \"{quote_txt[:160]}\". A correlation in observational "
                     "data does not show that one variable causes the other (confounding, "
                     "reverse causation, selection)."),
        severity="medium", confidence=0.55 if output_hit else 0.45,
        evidence={"lines": lines, "quotes": [quote_txt[:200]]},
        suggestion=("Report it as an association (\"X is associated with Y, r = …\"), name "
                    "plausible confounders, and keep causal claims for designs that support "
                    "them (randomised experiments, or an explicit causal model)."),
    )
