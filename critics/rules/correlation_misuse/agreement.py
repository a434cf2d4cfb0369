"""Agreement between two methods judged by their correlation.

- `agreement_by_correlation`: two measurements of the same quantity (two instruments,
  methods or raters) called interchangeable because they correlate, where agreement needs
  the differences between them (Bland-Altman limits, ICC, Lin's concordance).
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Iterator

from ...ast_cache import walk as _walk
from ...evidence import Evidence
from ...findings import Finding
from ...rule import rule
from ._scan import _POOLED_NAMES, _reported_strings, _stat_call

# -- agreement between two methods judged by their correlation ------------------------------------

_AGREE = re.compile(
    r"(?i)\b(?:agree(?:s|d|ment)?|interchangeabl\w*|"
    r"(?:can|could|may)\s+(?:safely\s+)?(?:replace|substitute\s+for|stand\s+in\s+for)|"
    r"(?:valid|good|suitable|acceptable|reliable)\s+(?:substitute|replacement|proxy|surrogate|"
    r"alternative)|(?<!cross-)(?<!cross\s)validat(?:es|ed|ion)|"
    r"consistent\s+with\s+(?:the\s+)?(?:lab|reference|gold|standard|each\s+other|one\s+another|"
    r"manual|clinic)|(?:measure|read|give)s?\s+the\s+same|equivalent\s+(?:to|readings|"
    r"measurements|results|methods?)|concordan\w*)")
# a model's predictions judged against what happened: calibration words
_CALIBRATION = re.compile(
    r"(?i)\b(?:(?:well[-\s]|mis|re)?calibrat\w*|"
    r"(?:predicted|expected|model(?:led)?|forecast)\s+(?:vs\.?|versus|against|matches|"
    r"tracks|in\s+line\s+with)\s+(?:the\s+)?(?:observed|actual|realised|realized|"
    r"empirical)|(?:observed|actual)\s+(?:vs\.?|versus|against)\s+(?:predicted|"
    r"expected|model))")
_LIKERT_AGREE = re.compile(r"(?i)strongly\s+(?:dis)?agree|agree\s*(?:/|or)\s*disagree|"
                           r"neither\s+agree|somewhat\s+agree")
# what looks at the differences between the methods (or uses an agreement statistic)
_AGREEMENT_DONE = re.compile(
    r"(?i)bland|altman|limits?[_\s]of[_\s]agreement|\bloa\b|\bicc\d?\b|intraclass|"
    r"concordance|\bccc\b|lins?_|deming|passing|bablok|mean_absolute_error|"
    r"mean_squared_error|\bmae\b|\brmse\b|\bbias\b|allclose|isclose|np\.subtract|"
    r"\bdiffs?\b|difference")
_CALIBRATION_DONE = re.compile(
    r"(?i)o_?over_?e|o_?e_?ratio|\bo/e\b|hosmer|lemeshow|binomtest|binom_test|"
    r"calibration_curve|calibration_slope|brier|jeffreys|traffic_light|expected_defaults|"
    r"observed\s*/\s*expected|observed_over_expected|/\s*\w*expected|isotonic|platt")
_METHOD_WORD = re.compile(
    r"(?i)(?:^|_)(?:lab|field|ref|reference|gold|standard|std|device|meter|manual|auto|"
    r"automated|rater|observer|reader|judge|method|instrument|sensor|assay|kit|new|old|poc|"
    r"bedside|portable|handheld|wearable|clinic|home|self|cuff|wrist|probe|gauge|machine|"
    r"human|expert|visual)(?:_|$|\d)|(?:^|_)(?:a|b|1|2)$|rater_?\d|obs_?\d")
_GENERIC_TOKENS = {"df", "data", "x", "y", "values", "value", "col", "the", "to", "numpy",
                   "array", "a", "b", "s", "of", "and"}


def _key_label(expr: str) -> str:
    """The column or variable a sample expression names: `df["lab_na"]` -> `lab_na`."""
    quoted = re.findall(r"""["']([^"']+)["']""", expr)
    if quoted:
        return quoted[-1]
    names = re.findall(r"[A-Za-z_]\w*", re.sub(r"\.(?:values|to_numpy|dropna|astype|"
                                                  r"ravel|array)\b.*$", "", expr))
    return names[-1] if names else expr


def _tokens(label: str) -> set[str]:
    return {t.lower() for t in re.split(r"[^A-Za-z]+|_", label)
            if len(t) >= 2 and t.lower() not in _GENERIC_TOKENS}


def _same_unit(a: str, b: str) -> bool:
    """Two labels ending in the same unit suffix (`rectal_c` / `ir_ear_c`, `sbp_mmhg` /
    `cuff_sbp_mmhg`): one quantity in one unit, read by two methods."""
    ta, tb = re.split(r"[_\W]+", a.lower().strip("_")), re.split(r"[_\W]+", b.lower().strip("_"))
    return len(ta) > 1 and len(tb) > 1 and ta[-1] == tb[-1] and ta[-1].isalpha() \
        and ta[:-1] != tb[:-1]


_INSTRUMENT = re.compile(
    r"(?i)\b(?:thermometers?|meters?|devices?|monitors?|scanners?|sensors?|probes?|gauges?|"
    r"instruments?|assays?|analy[sz]ers?|kits?|methods?|readings?|readouts?|measurements?|"
    r"scales?|cuffs?|raters?|observers?|tests?)\b")


def _names_a_method(quote: str, a: str, b: str) -> bool:
    """The agreement sentence speaks of a measuring device or method and names one of the
    samples ("the infrared ear thermometer agrees closely with rectal temperature" for
    `rectal_c` / `ir_ear_c`): two readings of one quantity."""
    if not _INSTRUMENT.search(quote):
        return False
    words = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", quote)}
    return bool(words & {t for t in _tokens(a) | _tokens(b) if len(t) >= 3})


def _subtracts(ev: Evidence, a: str, b: str) -> bool:
    """The cell subtracts one sample from the other (as written, or by column key)."""
    keys = {a, b, _key_label(a), _key_label(b)}
    for node in _walk(ev.tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub):
            left, right = ev.source_of(node.left), ev.source_of(node.right)
            ls = {left, _key_label(left)}
            rs = {right, _key_label(right)}
            if ls & keys and rs & keys and _key_label(left) != _key_label(right):
                return True
    return False


def _assigned_r(ev: Evidence, line: int) -> float | None:
    """The correlation a call on `line` produced, when bound to one name the kernel shows as
    a number in [-1, 1] (`r = np.corrcoef(a, b)[0, 1]`)."""
    for node in _walk(ev.tree):
        if isinstance(node, ast.Assign) and node.lineno == line and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            facts = ev.objects.get(node.targets[0].id)
            v = facts.value if facts is not None else None
            if isinstance(v, int | float) and not isinstance(v, bool) and -1 <= v <= 1:
                return float(v)
    return None


@rule("correlation_misuse.agreement_by_correlation",
      title="Agreement between two methods judged by their correlation")
def agreement_by_correlation(ev: Evidence) -> Iterator[Finding]:
    """Two measurements of the same quantity (two instruments, methods, raters: the same
    scale, names sharing a unit or a method word) correlated and the result worded as
    agreement ("agrees", "interchangeable", "can replace", "validated"): r measures how
    well the points follow *some* line, not the identity line, so a constant offset or a
    proportional bias leaves r near 1 while the methods disagree. From the kernel's facts of
    the two samples: the mean difference, the SD ratio and (with r) the SD of the
    differences and Lin's concordance; without r, the highest concordance any r could give.
    High (0.7) when those show a bias the correlation hides; medium (0.5) otherwise. Quiet
    when the cell looks at the differences (Bland-Altman, limits of agreement, a bias or
    MAE) or computes ICC, Lin's CCC, Deming or Passing-Bablok regression."""
    if ev.tree is None or not ev.samples or _AGREEMENT_DONE.search(ev.code):
        return
    texts = [t for _, t in _reported_strings(ev)] + [ev.text]
    quote, calibration = None, False
    for t in texts:
        if _LIKERT_AGREE.search(t):
            return
        mt = _AGREE.search(t)
        mc = None if mt else _CALIBRATION.search(t)
        if (mt or mc) and quote is None:
            word = (mt or mc).group(0)  # type: ignore[union-attr]
            line = next((ln for ln in t.splitlines() if word in ln), t)
            quote, calibration = line.strip()[:160], mt is None
    if quote is None or (calibration and _CALIBRATION_DONE.search(ev.code)):
        return
    for c in ev.model.calls:
        found = _stat_call(c)
        if found is None:
            continue
        full = found[0]
        read = {s.arg: s for s in ev.samples if s.line == c.line and s.call == full}
        a, b = read.get(0, read.get("x")), read.get(1, read.get("y"))
        if a is None or b is None or a.expr == b.expr:
            continue
        if None in (a.mean, b.mean, a.std, b.std, a.min, a.max, b.min, b.max) or \
                min(a.n, b.n) < 5 or not a.std or not b.std:
            continue
        if a.integer_valued and b.integer_valued and max(a.n_unique, b.n_unique) <= 10:
            continue  # ratings on a short scale: a kappa question, not this one
        ma, mb, sa, sb = a.mean, b.mean, a.std, b.std  # type: ignore[assignment]
        # a calibration claim says predictions and outcomes are on one scale; allow a wider
        # ratio (a 3x under-prediction is the very failure to find) but still overlapping
        lo, hi = (0.2, 5.0) if calibration else (0.5, 2.0)
        if ma * mb <= 0 or not lo <= mb / ma <= hi or not lo <= sb / sa <= hi or \
                max(a.min, b.min) >= min(a.max, b.max):  # type: ignore[type-var]
            continue  # not two readings of one quantity on one scale
        la, lb = _key_label(a.expr), _key_label(b.expr)
        if not (calibration or _tokens(la) & _tokens(lb) or _METHOD_WORD.search(la)
                or _METHOD_WORD.search(lb) or _same_unit(la, lb)
                or _names_a_method(quote, la, lb)):
            continue
        if _subtracts(ev, a.expr, b.expr):
            return
        d = mb - ma
        r = a.pair_r if a.pair_r is not None else _assigned_r(ev, c.line)
        ccc_max = 2 * sa * sb / (sa ** 2 + sb ** 2 + d ** 2)
        values: dict[str, object] = {"mean_difference": round(d, 4),
                                     "sd_ratio": round(sb / sa, 3),
                                     "ccc_upper_bound": round(ccc_max, 3)}
        detail = (f"`{lb}` averages {mb:.4g} and `{la}` {ma:.4g} (mean difference "
                  f"{d:+.3g}), with SDs {sb:.3g} and {sa:.3g} (ratio {sb / sa:.2f})")
        biased = ccc_max < 0.95
        if r is not None and abs(r) <= 1:
            sd_d = math.sqrt(max(sa ** 2 + sb ** 2 - 2 * r * sa * sb, 0.0))
            ccc = 2 * r * sa * sb / (sa ** 2 + sb ** 2 + d ** 2)
            values.update(r=r, sd_difference=round(sd_d, 4), lin_ccc=round(ccc, 3),
                          limits_of_agreement=[round(d - 1.96 * sd_d, 4),
                                               round(d + 1.96 * sd_d, 4)])
            detail += (f"; with r = {r:.3f} the differences have SD {sd_d:.3g}, so the 95% "
                       f"limits of agreement are {d - 1.96 * sd_d:+.3g} to "
                       f"{d + 1.96 * sd_d:+.3g} and Lin's concordance is {ccc:.3f}")
            biased = biased or (r - ccc >= 0.03 and abs(d) >= 0.5 * sd_d)
            if calibration:
                slope = r * sb / sa
                icpt = mb - slope * ma
                values.update(slope=round(slope, 3), intercept=round(icpt, 4))
                detail += (f"; the line through the points has slope {slope:.2f} and "
                           f"intercept {icpt:+.3g} (calibration needs 1 and 0)")
                biased = biased or not 0.8 <= slope <= 1.25
        else:
            detail += (f"; even a perfect correlation would give a concordance of at most "
                       f"{ccc_max:.3f}")
        if calibration:
            values["mean_ratio"] = round(mb / ma, 3)
            detail += (f". `{lb}` averages {mb / ma:.2f}x `{la}`")
            biased = biased or not 0.85 <= mb / ma <= 1.0 / 0.85
        severity, confidence = ("high", 0.7) if biased else ("medium", 0.5)
        name = _POOLED_NAMES.get(full, full)
        if calibration:
            yield Finding(
                explanation=(f"`{name}` (line {c.line}) correlates predictions with outcomes "
                             f"(`{a.expr}` and `{b.expr}`) and the cell reads it as "
                             f"calibration: \"{quote}\". A correlation only says the two "
                             "rank and move together; calibration needs the predictions to "
                             "equal the observed values (slope 1, intercept 0, observed / "
                             "expected near 1), which a constant or proportional bias breaks "
                             f"while r stays near 1. Here {detail}."
                             + (" The correlation hides a systematic miscalibration."
                                if biased else "")),
                severity=severity, confidence=confidence,
                evidence={"lines": [c.line], "quotes": [quote], "values": values},
                suggestion=("Judge calibration on the levels, not the correlation: report "
                            "observed / expected per group and overall (calibration in the "
                            "large), a calibration slope and intercept (regress outcomes on "
                            "predictions, or logit outcome on logit prediction), and a test "
                            "per group (binomial test, Hosmer-Lemeshow, Jeffreys / traffic "
                            "light for PD grades); recalibrate if O/E differs from 1."),
            )
            return
        yield Finding(
            explanation=(f"`{name}` (line {c.line}) correlates two measurements of the same "
                         f"quantity (`{a.expr}` and `{b.expr}`) and the cell reads it as "
                         f"agreement: \"{quote}\". A correlation says how closely the points "
                         "follow some straight line, not the line of equality: a constant "
                         "offset or a proportional bias leaves r near 1 while the methods "
                         f"disagree. Here {detail}."
                         + (" The correlation hides a systematic bias." if biased else "")),
            severity=severity, confidence=confidence,
            evidence={"lines": [c.line], "quotes": [quote], "values": values},
            suggestion=("Assess agreement on the differences: a Bland-Altman analysis (mean "
                        "difference = bias, 95% limits of agreement = bias ± 1.96·SD of the "
                        "differences, and a regression of the difference on the mean for "
                        "proportional bias), judged against a clinically/practically "
                        "acceptable difference; or report Lin's concordance coefficient, an "
                        "ICC (absolute agreement), or a Deming / Passing-Bablok fit."),
        )
        return
