"""Reading the text the user saw: labelled numbers ("R2: -0.31", "p = 1.7"), bracketed
lists, pandas Series footers and table columns, and tying a printed label back to the
print / f-string / format site in the code that produced it; a column of a printed
DataFrame (`_column_in_text`, also used by parametric_assumptions)."""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass

from ...ast_cache import walk as _walk
from ...code_model import called_name as _call_last
from ._code import _UNIT_AFTER, _of
from ._vocabulary import _name_quantity

# -- text parsing -------------------------------------------------------------------------------

_NUM_RE = re.compile(r"(?<![\w.])[-+\u2212]?(?:(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|"
                     r"inf|nan)(?![\w])(\s*%)?")
_SERIES_FOOTER = re.compile(r"^Name: ([^,]+), dtype: (?:float|int)\w*", re.MULTILINE)
_PEARSON_STAT = (r"(?:'?s)?[\s_-]*(?:chi|\u03c7|x2|x\^2|dispersion|resid|goodness|gof|"
                 r"statistic|stat\b|phi\b|contingency)")
_P_MODIFIER = (r"(?:sided|tailed|adj|corr|holm|bonf|fdr|\bbh\b|sidak|perm|exact|boot|raw|"
               r"value|wald|lrt|score|chi|\bf\b|\bt\b|\bz\b)")
# "Cronbach's alpha", "alpha (Cronbach)", "KR-20", "McDonald's omega": a scale's reliability
# ('alpha' alone is a significance level and stays excluded)
_RELIABILITY = (r"\bcronbach\b(?:'?s)?(?:\s*(?:alpha|\u03b1))?|(?:alpha|\u03b1)\s*\(cronbach\)|"
                r"\bkr[\s-]*2[01]\b|\bkuder[\s-]richardson\b|\bmcdonald'?s\s*(?:omega|\u03c9)")
_RELIABILITY_RE = re.compile(_RELIABILITY)
_LABEL_QUANTITY = [
    # (regex over a normalised label, quantity, strong); the match nearest the number wins
    (r"\badj(?:usted|\.)?\s*r\s*-?\s*(?:2|squared)\b", "adj_r2", True),
    (r"\br\s*-?\s*(?:2|squared)\b|\br2_score\b|coefficient of determination", "r2", True),
    (r"\bp[\s_-]?val(?:ue)?s?\b|\bp[\s_-]?(?:adj|adjusted|corr|corrected|bonf|bonferroni|"
     r"holm|fdr|bh|sidak)\b|\b(?:adj|adjusted|corrected|bonferroni|holm|fdr|raw)[\s_-]?p\b|"
     r"\bq[\s_-]?val(?:ue)?s?\b|\bpadj\b|\bfdr\b", "pvalue", True),
    # a bare 'p', 'p (two-sided)', 'p(adj)'; 'P(crack)', 'P(y=1)' name an event's probability
    (r"(?:^|[\s(])p(?:\s+\([^)]*\)|\((?:[^)]*" + _P_MODIFIER + r")[^)]*\))?$", "pvalue", False),
    (r"\bbalanced accuracy\b|\baccuracy\b|\bacc\b", "accuracy", True),
    (r"\broc[\s_-]?auc\b|\bauroc\b|\bauc\b", "auc", True),
    (r"\bf1(?:[\s_-]?score)?\b|\bf1[\s_-]?(?:macro|micro|weighted)\b", "f1", True),
    (r"\bprecision\b|\brecall\b|\bsensitivity\b|\bspecificity\b", "bounded", True),
    # "Pearson chi2", "Pearson dispersion", "Pearson residuals" are goodness-of-fit
    # statistics named after Pearson, not his correlation coefficient
    (r"\bcorr(?:elation)?\b|\bcor\b|\brho\b|\u03c1|\bpearson\b(?!" + _PEARSON_STAT + r")|"
     r"\bspearman\b|\bkendall\b|"
     r"\br[\s_-]?value\b", "correlation", True),
    (r"(?:^|[\s(])r$", "correlation", False),
    (r"\bvariance\b|\bvar\b|\bstd\b|\bstdev\b|\bsd\b|\bstd\.?\s*dev(?:iation)?\b|"
     r"standard deviation|standard error|\bsem\b|\bsigma\b|\u03c3", "variance", True),
    (r"\b(?:r)?mse\b|\bmae\b|mean squared error|mean absolute error", "error", True),
    (r"\bs?mape\b|\bmdape\b|percent(?:age)? error", "pct_error", True),
    (r"\bprob(?:ability|abilities|s)?\b|\bproba\b|(?:^|[\s(])p\([^)]*\)$", "probability", True),
    (r"\bscore\b", "score", False),
    (_RELIABILITY, "reliability", True),
]
_LABEL_RES = [(re.compile(p), q, s) for p, q, s in _LABEL_QUANTITY]
_LABEL_EXCLUDE = re.compile(
    r"\b(?:diff(?:erence)?|delta|change|gain|improvement|log|log10|ln|-log|neglog|gap|drop|"
    r"shift|lift|loss|threshold|thresh|alpha|level|cutoff|number|count|n|num|rows|samples|"
    r"size|features|rank|z|odds|ratio|density|pdf|likelihood|total|sum|expected|dof|df|"
    r"weight|degrees?|iterations?|epochs?|seed|top|k|explained|standardi[sz]ed|resid\w*|"
    r"neg(?:ative)?_\w+|neg|logit|logits|probit|log[\s_-]?odds)\b|\u0394|#|"
    # 'std coef', 'SD beta', 'std. effect': standardised (signed), not a standard deviation
    r"\b(?:std|sd)\.?[\s_]*(?:coef\w*|coeff\w*|betas?|b|effects?|es|scores?|estimates?|"
    r"loadings?|slopes?)\b")
# a label '<quantity> for / at / of … <other quantity>' names its head: 'stress for 50% crack
# probability' is a stress, 'dose at 10% response probability' a dose; an aggregate head
# ('mean of the p-values', 'max AUC across folds') passes the quantity through
_HEAD_SPLIT = re.compile(r"\s\b(?:for|at|of|to|with|under|given|giving|when|where|reaching|"
                         r"yielding)\b\s")
_AGGREGATE_HEAD = re.compile(
    r"^(?:(?:the|a|an|overall|mean|median|average|avg|max(?:imum)?|min(?:imum)?|highest|"
    r"lowest|largest|smallest|typical|estimated|predicted|observed|fitted|value|values|"
    r"range|distribution|first|last|best|worst|final|smallest|bootstrap|pooled)\s*)*$")
# a test or a model in the head: its result is the quantity named after the preposition
# ('chi-square test of independence p-value', 'model for churn probability')
_ANALYSIS_HEAD = re.compile(r"\b(?:tests?|models?|fit|regression|comparison|contrast|analysis|"
                            r"classifier|estimator|predictor|logistic|glm|anova)\b")
_SEPARATORS = re.compile(r"[,;|\t]")
_MAX_TEXT = 30_000
_MAX_LINES = 600
_HAS_DIGIT = re.compile(r"\d|\binf\b|\bnan\b")
_HAS_DIGIT_START = re.compile(r"^\s*[-\d.]")
_HEADER_HINT = re.compile(r"(?i)p_|pval|padj|qval|fdr|r2|rsq|acc|auc|f1|corr|rho|var|std|"
                          r"\bsd|sigma|prob|mse|mae|precision|recall|\bp\b|\br\b")


# compiled once: `_norm_label` runs for every printed number
_BLANKS = re.compile(r"\s+")
_LABEL_TAIL = re.compile(r"(?:\s*(?:[:=\u2248]|\bis\b|\bwas\b|\bof\b|\bequals\b))+\s*$")
_LIST_GAP = re.compile(r"[\s,]*\]?[\s,]*")


def _norm_label(label: str) -> str:
    s = label.replace("\u00b2", "2").replace("^2", "2").replace("\u2212", "-").lower()
    s = _BLANKS.sub(" ", s)
    s = _LABEL_TAIL.sub("", s.strip())
    s = s.strip(" :=-[(").strip()
    return s


def _label_quantity(label: str) -> tuple[str, bool] | None:
    if label and _RELIABILITY_RE.search(label) and not _LABEL_EXCLUDE.search(
            _RELIABILITY_RE.sub(" ", label)):
        return "reliability", True
    if not label or _LABEL_EXCLUDE.search(label):
        return None
    head = _HEAD_SPLIT.split(label, maxsplit=1)
    if len(head) == 2 and head[0].strip() and not _AGGREGATE_HEAD.match(head[0].strip()) \
            and not _ANALYSIS_HEAD.search(head[0]):
        found = _label_quantity_of(head[0])
        if found is not None:
            return found
        tail = _label_quantity_of(head[1])
        if tail is not None and tail[1]:
            return None  # the head noun is another quantity: 'stress for 50% probability'
    return _label_quantity_of(label)


def _label_quantity_of(label: str) -> tuple[str, bool] | None:
    best: tuple[int, str, bool] | None = None
    strong_for: set[str] = set()
    for regex, q, strong in _LABEL_RES:
        for m in regex.finditer(label):
            if strong:
                strong_for.add(q)
            if best is None or m.end() > best[0]:
                best = (m.end(), q, strong)
    if best is None:
        return None
    return best[1], best[2] or best[1] in strong_for


def _to_float(text: str) -> float | None:
    try:
        return float(text.replace("\u2212", "-"))
    except ValueError:
        return None


@dataclass
class _TextNumber:
    label: str  # normalised
    raw_label: str
    value: float
    text: str  # number as printed
    percent: bool
    line: str
    in_list: bool
    unit: bool = False  # followed by a physical unit, or in a run of numbers that is
    measure: bool = False  # followed by a unit of measurement that no bounded quantity has
    formula: bool = False  # a term of a printed equation ('y = -13.0 + 0.029 * x')


@functools.lru_cache(maxsize=8)  # several rules read the same output; callers only read
def _text_numbers(text: str) -> list[_TextNumber]:
    """Labelled numbers: 'R2: -0.31', 'p = 1.7', 'p-values: [0.2 1.4]' (every element of
    a bracketed list gets the label before the bracket, across wrapped lines). A label
    followed by a row of unlabelled decimals ('var  -0.02  0.03  0.11', a table row) is a
    row label, not a label of the first number."""
    out: list[_TextNumber] = []
    depth = 0
    list_label = ""
    list_raw = ""
    for line in text[:_MAX_TEXT].splitlines()[:_MAX_LINES]:
        if not _HAS_DIGIT.search(line):
            continue
        line = line.replace("^2", "2").replace("\u00b2", "2").replace("\u2212", "-")
        prev_end = 0
        row: list[tuple[_TextNumber, bool]] = []  # (number, preceded by blanks only)
        inner: _TextNumber | None = None  # 'AUC on last 750 games: 0.678': 750 is in the label
        fraction_label: tuple[str, str] | None = None
        for m in _NUM_RE.finditer(line):
            seg = line[prev_end:m.start()]
            if inner is not None:
                if row and row[-1][0] is inner and (_COUNTED_NOUN.fullmatch(seg) or (
                        _LABEL_SEP.fullmatch(seg) and (_ENDS_IN_PREP.search(inner.raw_label)
                                                       or _GLUED_NAME.search(inner.raw_label)))):
                    row.pop()  # the count belongs to the next number's label
                    joined = f"{inner.raw_label.rstrip()} {inner.text}{seg}"
                    raw_joined = _SEPARATORS.split(joined)[-1]
                    seg_override = (_norm_label(raw_joined), raw_joined)
                else:
                    seg_override = None
                inner = None
            else:
                seg_override = None
            opened = seg.count("[") - seg.count("]")
            value = _to_float(m.group(0).rstrip("% ").strip())
            prev_end = m.end()
            if value is None:
                continue
            if not m.group(1) and (_FRACTION_AFTER.match(line, m.end())
                                   or _FRACTION_BEFORE.search(line, max(0, m.start() - 3),
                                                              m.start())) and not opened:
                # 'sensitivity 116/117 = 99.1%': the counts of a fraction; the label before
                # them belongs to the proportion that follows
                if fraction_label is None:
                    raw = _SEPARATORS.split(seg)[-1]
                    fraction_label = (_norm_label(raw), raw)
                continue
            if fraction_label is not None:
                if _FRACTION_JOIN.fullmatch(seg) and seg_override is None:
                    seg_override = fraction_label
                fraction_label = None
            in_list = False
            if depth > 0 and _LIST_GAP.fullmatch(seg) and "]" not in seg:
                label, raw = list_label, list_raw
                in_list = True
            else:
                raw = _SEPARATORS.split(seg)[-1] if "[" not in seg else seg.split("[")[0]
                raw = _SEPARATORS.split(raw)[-1]
                label = _norm_label(raw)
                if seg_override is not None:
                    label, raw = seg_override
                if row and _UNIT_THEN_INTERVAL.fullmatch(seg):
                    # 'effect -0.075 SD [-0.269, 0.119]': SD is the unit of the number
                    # before it and the bracket its interval, not a list of SDs
                    label, raw = "", ""
                if opened > 0:
                    list_label, list_raw = label, raw
                    in_list = True
            depth = max(0, depth + opened) if not in_list or opened > 0 else depth
            if "]" in seg and depth > 0 and not in_list:
                depth = 0
            text_num = m.group(0).strip()
            unit = not m.group(1) and bool(_UNIT_AFTER.match(line[m.end():]))
            after = line[m.end():]
            tn_new = _TextNumber(label, raw.strip(), value, text_num, bool(m.group(1)),
                                 line.strip(), in_list, unit,
                                 not m.group(1) and bool(_MEASURE_AFTER.match(after)),
                                 bool(_OPERATOR_AFTER.match(after)))
            row.append((tn_new, not seg.strip()))
            if not in_list and ((not tn_new.percent and _INT_TEXT.match(text_num)) or (
                    tn_new.percent and _ENDS_IN_PREP.search(raw))):
                inner = tn_new  # also 'stress for 50% crack probability: 450': 50% is a label
        tail = line[prev_end:]
        if "]" in tail:
            depth = 0
        if any(tn.unit for tn, _ in row):
            # "reference 372, test 884 ng*h/mL": the unit at the end of a run covers it
            for tn, _ in row:
                tn.unit = True
        for i, (tn, _) in enumerate(row):
            if tn.label and not tn.in_list:
                following = []
                for nxt, blank in row[i + 1:]:
                    if not blank:
                        break
                    following.append(nxt)
                if any(not _INT_TEXT.match(n.text) for n in following):
                    continue  # a table row: 'var  -0.020  0.025'
            out.append(tn)
    return out


_INT_TEXT = re.compile(r"^[-+]?\d+$")
# 'k/n' printed next to a proportion: the numerator and the denominator are counts
_FRACTION_AFTER = re.compile(r"\s?/\s?\d")
_FRACTION_JOIN = re.compile(r"\s*[=:(]?\s*")
_FRACTION_BEFORE = re.compile(r"\d\s?/\s?$")  # searched over the 3 characters before
# a spread word right after a number and before an opening bracket: the number's unit
# ('0.31 SD [0.12, 0.50]', '-1.2 sd (95% CI ...'), the bracket holding its interval
_UNIT_THEN_INTERVAL = re.compile(
    r"(?i)\s*(?:sds?|s\.d\.?|std|standard deviations?|sigmas?|\u03c3)\s*[\[(]\s*")
# a unit of measurement after a number (not %, not a probability): 450 MPa, 12.5 mm, 3.2 kg,
# 40 °C, 2.1 s, 85 bpm, 120 mmHg, 1.6 kWh, 7 days
_MEASURE_AFTER = re.compile(
    r"^\s*(?:[kMGTmunµμ]?(?:Pa|N|J|W|Wh|V|Hz|g|m|L|s|K|mol|Ω|ohm)|[kmuµμ]A|"
    r"°\s*[CF]|deg(?:C|F|rees)?|mmHg|bpm|rpm|psi|ksi|lbs?|kcal|cal|ppm|ppb|"
    r"[cdk]?m[23²³]?|mm|cm|km|inch(?:es)?|ft|mph|kph|km/h|m/s|"
    r"sec(?:onds?)?|min(?:utes?)?|h|hrs?|hours?|days?|weeks?|months?|years?|yrs?|"
    r"USD|EUR|GBP|\$|€|£)(?![A-Za-z0-9])")
# a number in an arithmetic expression: followed by '+ 0.03 * x', '* stress', '- 0.5 x'
# (not '+/-', which reports an uncertainty, nor significance stars '**')
_OPERATOR_AFTER = re.compile(r"^\s*(?:\+(?![/-])|[*\u00d7\u00b7](?!\*))\s*[-\w(.]|"
                             r"^\s+[-\u2212]\s+(?:\d+\.?\d*|\.\d+)\s*(?:[*\u00d7\u00b7]|[A-Za-z(])")
# words after a whole number that end in a label separator: the number counts what the words
# name ('AUC on the last 750 games: 0.68', 'accuracy over 5 folds = 0.91'), it is not a value
# or a number after a preposition right before the separator ('R2 for 2019: 0.41')
_LABEL_SEP = re.compile(r"\s*[:=]\s*")
# a whole number glued to a word by a hyphen is part of a name: 'KR-20', 'PHQ-9', 'SF-36'
_GLUED_NAME = re.compile(r"[A-Za-z]-$")
_ENDS_IN_PREP = re.compile(r"(?i)\b(?:for|in|on|over|at|of|with|across|from|after|before|"
                           r"since|until|last|first|top|per)\s*$")
_COUNTED_NOUN = re.compile(r"\s+[A-Za-z][A-Za-z\s\-()']{0,40}?\s*(?::|=|\bis\b|\bwas\b)\s*")


def _series_blocks(text: str) -> list[tuple[str, list[float]]]:
    """pandas Series reprs: the values above a 'Name: p_adj, dtype: float64' footer."""
    out: list[tuple[str, list[float]]] = []
    if "dtype:" not in text:
        return []
    lines = text[:_MAX_TEXT].splitlines()[:_MAX_LINES]
    for i, line in enumerate(lines):
        m = _SERIES_FOOTER.match(line)
        if not m:
            continue
        values: list[float] = []
        j = i - 1
        while j >= 0 and len(values) < 500:
            parts = lines[j].split()
            if not parts:
                break
            v = _to_float(parts[-1])
            if v is None:
                break
            values.append(v)
            j -= 1
        if values:
            out.append((m.group(1).strip(), values[::-1]))
    return out


_COUNT_ROWS = {"count", "unique", "freq", "top", "n", "nobs", "size", "support", "n_obs"}
_IDENT = re.compile(r"^[A-Za-z_][\w.\-]*$")
_TOKEN = re.compile(r"\S+")


def _tables(text: str, computed: set[str]) -> list[tuple[str, list[str], list[float]]]:
    """Columns of pandas DataFrame reprs whose header names a quantity and that the cell's
    code names (a results table it built, not raw data it shows): (column, row labels,
    values). Square matrices (correlations, covariances) are skipped."""
    out: list[tuple[str, list[str], list[float]]] = []
    lines = text[:_MAX_TEXT].splitlines()[:_MAX_LINES]
    for i, line in enumerate(lines[:-1]):
        if not _HEADER_HINT.search(line) or _HAS_DIGIT_START.match(line):
            continue
        header = line.split()
        if not header or len(header) > 40 or "support" in header or not all(
                _IDENT.match(h) for h in header):
            continue
        cols = [(j, h) for j, h in enumerate(header)
                if h in computed and (nq := _name_quantity(h)) and nq[1]
                and _label_quantity(_norm_label(h.replace("_", " ")))]
        if not cols:
            continue
        rows: dict[int, list[float]] = {j: [] for j, _ in cols}
        labels: list[str] = []
        # pandas right-aligns a column's cells with its header: a cell ends where its
        # header ends, which places the values even when another cell is blank
        ends = [m.end() for m in _TOKEN.finditer(line)]
        for row in lines[i + 1:i + 501]:
            toks = row.split()
            offset = 0
            if len(toks) == len(header) + 1:
                offset = 1
            elif toks and len(toks) <= len(header) and len(header) > 1 and all(
                    ends[j] in (at := {m.end(): m.group(0) for m in _TOKEN.finditer(row)})
                    for j, _ in cols):
                # a blank cell (or no index): read the cells by position; the first token,
                # when it ends under no header, is the row's index label
                first = _TOKEN.search(row)
                toks = ([first.group(0)] if first and first.end() not in ends else [""]) + [
                    at.get(e, "") for e in ends]
                offset = 1
            else:
                if toks and len(toks) < len(header):
                    continue  # index-name line under the header
                break
            ok = True
            for j, _ in cols:
                v = _to_float(toks[j + offset])
                if v is None:
                    ok = False
                    break
                rows[j].append(v)
            if not ok:
                break
            labels.append(toks[0] if offset else "")
        if labels and set(header) <= set(labels):
            continue  # a correlation / covariance matrix
        for j, h in cols:
            if rows[j]:
                out.append((h, labels[:len(rows[j])], rows[j]))
    return out


def _computed_columns(tree: ast.AST) -> set[str]:
    """Column / Series names this cell creates (`res["p_bonf"] = …`, dict keys of a
    DataFrame it builds, `assign(p_adj=…)`, `columns=[…]`, `name=…`), as opposed to columns
    of data it merely shows."""
    out: set[str] = set()
    for node in _of(tree, ast.Subscript):
        if isinstance(node.ctx, ast.Store) and isinstance(node.slice, ast.Constant) and \
                isinstance(node.slice.value, str):
            out.add(node.slice.value)
    for node in _of(tree, ast.Attribute):
        if isinstance(node.ctx, ast.Store):
            out.add(node.attr)
    for node in _of(tree, ast.Dict):
        out |= {k.value for k in node.keys if isinstance(k, ast.Constant)
                and isinstance(k.value, str)}
        out |= {v.value for v in node.values if isinstance(v, ast.Constant)
                and isinstance(v.value, str)}  # rename(columns={"p": "p_adj"})
    for node in _of(tree, ast.Call):
        if _call_last(node) in ("agg", "aggregate", "apply", "transform"):
            # .agg(["mean", one_pass_var]) names a column after the function
            for a in node.args:
                for sub in _walk(a):
                    if isinstance(sub, ast.Name):
                        out.add(sub.id)
                    elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                        out.add(sub.value)
        for k in node.keywords:
            if k.arg in ("columns", "name", "names", "index"):
                out |= {c.value for c in _walk(k.value) if isinstance(c, ast.Constant)
                        and isinstance(c.value, str)}
            elif k.arg:
                out.add(k.arg)
    return out


# -- the code that printed a label ----------------------------------------------------------


@dataclass
class _Site:
    label: str  # normalised text before the value
    expr: ast.AST
    line: int


def _report_sites(model_tree: ast.Module) -> list[_Site]:
    sites: list[_Site] = []
    for node in _of(model_tree, ast.Call, ast.JoinedStr, ast.BinOp):
        if isinstance(node, ast.Call):
            last = _call_last(node)
            if last in ("print", "display", "info", "warning", "write", "markdown", "Markdown"):
                pending = ""
                for a in node.args:
                    if isinstance(a, ast.Constant) and isinstance(a.value, str):
                        pending = a.value
                    elif isinstance(a, ast.JoinedStr):
                        pending = _trailing_text(a)
                    else:
                        sites.append(_Site(_site_label(pending), a, node.lineno))
                        pending = ""
            if (last == "format" and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Constant)
                    and isinstance(node.func.value.value, str)):
                pieces = re.split(r"\{[^{}]*\}", node.func.value.value)
                for i, a in enumerate(node.args):
                    if i < len(pieces):
                        sites.append(_Site(_site_label(pieces[i]), a, node.lineno))
        elif isinstance(node, ast.JoinedStr):
            pending = ""
            for v in node.values:
                if isinstance(v, ast.Constant) and isinstance(v.value, str):
                    pending = v.value
                elif isinstance(v, ast.FormattedValue):
                    sites.append(_Site(_site_label(pending), v.value, node.lineno))
                    pending = ""
        elif (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod)
              and isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)):
            pieces = re.split(r"%[-+ #0]*\d*(?:\.\d+)?[sdifgeEr%]", node.left.value)
            args = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
            for i, a in enumerate(args):
                if i < len(pieces):
                    sites.append(_Site(_site_label(pieces[i]), a, node.lineno))
    return sites


def _trailing_text(js: ast.JoinedStr) -> str:
    if js.values and isinstance(js.values[-1], ast.Constant):
        return str(js.values[-1].value)
    return ""


def _site_label(text: str) -> str:
    return _norm_label(_SEPARATORS.split(text)[-1].split("\n")[-1])


def _match_site(label: str, sites: list[_Site]) -> _Site | None:
    if not label:
        return None
    for s in sites:
        if s.label and (s.label == label or (len(s.label) >= 2 and label.endswith(s.label))
                        or (len(label) >= 2 and s.label.endswith(label))):
            return s
    return None


def _column_in_text(text: str, col: str) -> list[float]:
    """Values of the column `col` in a printed DataFrame."""
    lines = text[:_MAX_TEXT].splitlines()[:_MAX_LINES]
    for i, line in enumerate(lines[:-1]):
        header = line.split()
        if col not in header or _HAS_DIGIT_START.match(line):
            continue
        j = header.index(col)
        vals: list[float] = []
        for row in lines[i + 1:i + 501]:
            toks = row.split()
            if len(toks) < len(header) or not toks:
                if toks and not vals:
                    continue  # the index-name line
                break
            # values align from the right (index labels may contain spaces)
            v = _to_float(toks[j - len(header)].rstrip("%"))
            if v is None:
                break
            vals.append(v)
        if vals:
            return vals
    return []
