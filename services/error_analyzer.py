"""ErrorAnalyzer: one attempt's error -> structured, actionable feedback for the code generator.

Two inputs reach it (DESIGN.md, flow steps 4 and 7):

* a runtime error in Jupyter's shape `{ename, evalue, traceback[]}` from a real ipykernel. The
  traceback lines carry ANSI colours. IPython 8+ names a cell `Cell In[N], line K` (with
  `, in f(args)` for a function frame; `%xmode Plain` drops the comma); library frames read
  `File /path/to/module.py:LINE, in func(args)`. A traceback can hold several chained sections
  ("The above exception was the direct cause ...") and frames of functions defined in earlier
  cells. The failing line of *this attempt* is the last frame whose `In[N]` is the attempt's
  own execution count; without one, the last frame of the highest `In[N]`.
  IPython compiles a cell after removing its leading blank lines, so its line numbers are
  shifted by that many lines: they are mapped back onto the attempt's code here.
  SyntaxError/IndentationError come as a single indented `  Cell In[N], line K` block (no
  arrow) and their evalue ends with `(<hash>.py, line K)`: both are understood.
* a `ScientificValidityError` (`services.scientific_validity.validity_error`), which carries
  the critic's blocking `findings`: no traceback to parse; the findings are passed through,
  ordered by severity then confidence.

`ErrorFeedback.render()` is the text the generator gets; `signature()` is the key the iteration
controller compares to detect a stall (the same error, or the same findings, twice).
"""

from __future__ import annotations

import ast
import builtins
import difflib
import hashlib
import keyword
import re
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from critics import Severity

from .code_generator import VariableInfo

CRITIQUE_ENAME = "ScientificValidityError"  # services.scientific_validity.ENAME
SYNTAX_ENAMES = {"SyntaxError", "IndentationError", "TabError"}

MAX_EVALUE_CHARS = 600
MAX_LINE_CHARS = 200
MAX_FRAMES = 3  # traceback frames shown after the failing line of this cell
MAX_NAMES = 12
MAX_COLUMNS_SHOWN = 40
MAX_FRAMES_LISTED = 3  # DataFrames whose columns are listed
MAX_EVIDENCE_LINES = 5

CRITIQUE_CLOSING = (
    "Fix the method, not the symptom: rewrite the analysis so that the reported result is "
    "valid. Do not silence the critic (no hiding, renaming or dropping the computation, no "
    "suppressed output or warnings).")

# -- ANSI and traceback parsing ---------------------------------------------------------------

_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text)


_CELL_HEADER = re.compile(
    r"^[ \t]*Cell In ?\[(?P<n>\d+)\], line (?P<line>\d+)(?:,? in (?P<func>.+?))?[ \t]*$",
    re.MULTILINE)
_INPUT_HEADER = re.compile(  # IPython 8.0-8.2: "Input In [3], in <cell line: 2>()"
    r"^[ \t]*Input In ?\[(?P<n>\d+)\](?:, in (?P<func>.+?))?[ \t]*$", re.MULTILINE)
_IPY7_HEADER = re.compile(  # IPython 7: "<ipython-input-3-5f...> in <module>"
    r"^[ \t]*<ipython-input-(?P<n>\d+)-\w+> in (?P<func>.+?)[ \t]*$", re.MULTILINE)
_PLAIN_FILE_HEADER = re.compile(  # plain Python: File "/x.py", line 3, in f
    r'^[ \t]*File "(?P<path>[^"]+)", line (?P<line>\d+)(?:, in (?P<func>.+?))?[ \t]*$',
    re.MULTILINE)
_FILE_HEADER = re.compile(  # IPython 8+: File /x.py:3, in f(a)
    r"^[ \t]*File (?P<path>\S.*?):(?P<line>\d+)(?:, in (?P<func>.+?))?[ \t]*$", re.MULTILINE)
_HEADERS = (("cell", _CELL_HEADER), ("input", _INPUT_HEADER), ("ipy7", _IPY7_HEADER),
            ("plain", _PLAIN_FILE_HEADER), ("file", _FILE_HEADER))
_ARROW = re.compile(r"^(?P<arrow>-*>)\s*(?P<num>\d*)\s?(?P<text>.*)$")
_CONTEXT_LINE = re.compile(r"^\s+(?P<num>\d+)(?: (?P<text>.*))?$")
_CHAIN_MARKERS = ("The above exception was the direct cause of the following exception",
                  "During handling of the above exception, another exception occurred")
_IPYKERNEL_FILE = re.compile(r"ipykernel_\d+[/\\]\d+\.py$")
_IPYTHON_INPUT_FILE = re.compile(r"<ipython-input-(\d+)-\w+>")
_SYNTAX_EVALUE_LINE = re.compile(r"\((?:[^()]*), line (\d+)\)\s*$")
_NO_SOURCE = "Could not get source"


@dataclass
class _Frame:
    kind: str  # "cell" (a notebook cell, In[N] known), "anon_cell" (cell, N unknown), "file"
    cell: int | None
    line: int | None
    func: str | None
    path: str | None
    text: str | None  # the source text of the frame's current line, as the traceback shows it
    body: str  # the frame as printed, ANSI stripped
    section: int  # index of the chained-exception section it belongs to


def _frame_from(kind: str, match: re.Match[str], body: str, section: int) -> _Frame:
    groups = match.groupdict()
    func = groups.get("func")
    path = groups.get("path")
    line = int(groups["line"]) if groups.get("line") else None
    cell = int(groups["n"]) if groups.get("n") else None
    frame_kind = "cell" if cell is not None else "file"
    if path is not None:
        in7 = _IPYTHON_INPUT_FILE.search(path)
        if in7:
            cell, frame_kind = int(in7.group(1)), "cell"
        elif _IPYKERNEL_FILE.search(path):
            frame_kind = "anon_cell"
    arrow_num, text = _current_line(body.splitlines()[1:])
    if line is None:
        line = arrow_num
    return _Frame(frame_kind, cell, line, func, path, text, body, section)


def _current_line(lines: list[str]) -> tuple[int | None, str | None]:
    """The arrow line of a Context/Verbose frame, else (Plain mode, SyntaxError) the first
    source line under the header."""
    for raw in lines:
        m = _ARROW.match(raw)
        if m:
            text = m.group("text").strip()
            num = int(m.group("num")) if m.group("num") else None
            return num, (None if _NO_SOURCE in text else text)
    for raw in lines:
        stripped = raw.strip()
        if not stripped or set(stripped) <= {"^", "~"}:
            continue
        if _CONTEXT_LINE.match(raw) or _NO_SOURCE in stripped:
            break
        return None, stripped
    return None, None


def parse_traceback(traceback: Iterable[str] | str | None) -> list[_Frame]:
    """Frames of an IPython (or plain Python) traceback, outermost first, with their section
    (chained exceptions: the final exception is in the last section)."""
    if traceback is None:
        return []
    chunks = [traceback] if isinstance(traceback, str) else list(traceback)
    frames: list[_Frame] = []
    section = 0
    for chunk in chunks:
        text = strip_ansi(str(chunk))
        if any(marker in text for marker in _CHAIN_MARKERS) and frames:
            section += 1
        starts: list[tuple[int, str, re.Match[str]]] = []
        taken: set[int] = set()
        for kind, pattern in _HEADERS:
            for m in pattern.finditer(text):
                if m.start() not in taken:
                    taken.add(m.start())
                    starts.append((m.start(), kind, m))
        starts.sort(key=lambda item: item[0])
        for i, (start, kind, m) in enumerate(starts):
            end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
            body = _cut_at_exception_line(text[start:end])
            frames.append(_frame_from(kind, m, body, section))
    return frames


def _cut_at_exception_line(body: str) -> str:
    lines = body.rstrip("\n").splitlines()
    for i, line in enumerate(lines[1:], 1):
        if re.match(r"^[A-Za-z_][\w.]*(?:Error|Exception|Warning|Interrupt|Exit)\b(?::|$)", line):
            return "\n".join(lines[:i])
    return "\n".join(lines)


def _leading_blank_lines(code: str) -> int:
    """IPython's `leading_empty_lines` transform drops these before compiling a cell."""
    for n, line in enumerate(code.splitlines()):
        if line.strip():
            return n
    return 0


# -- the feedback -------------------------------------------------------------------------


@dataclass
class ErrorFeedback:
    kind: str  # "error" | "critique"
    ename: str
    evalue: str
    line: int | None  # 1-based line in THIS attempt's code where it failed
    line_text: str | None
    names: list[str] = field(default_factory=list)
    hint: str | None = None
    findings: list[dict[str, Any]] = field(default_factory=list)
    frames: list[str] = field(default_factory=list)  # trimmed traceback frames, outermost first
    columns: dict[str, list[str]] = field(default_factory=dict)  # DataFrame -> its columns
    code: str = field(default="", repr=False)  # the attempt's code (evidence lines' text)

    # -- the text the generator gets ----------------------------------------------------

    def render(self, max_chars: int = 4000) -> str:
        max_chars = max(0, max_chars)
        if self.kind == "critique":
            return _render_critique(self, max_chars)
        return _render_error(self, max_chars)

    def signature(self) -> str:
        """Equal for the same failure on another run: the same error (ename, evalue without
        run-specific parts, failing line's text), or the same set of blocking rules."""
        if self.kind == "critique":
            rules = sorted({str(f.get("rule_id", "")) for f in self.findings})
            return "critique:" + ",".join(rules)
        text = " ".join((self.line_text or "").split())
        digest = hashlib.sha256(f"{normalize_evalue(self.evalue)}\n{text}".encode()).hexdigest()
        return f"error:{self.ename}:{digest[:16]}"

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        del data["code"]
        data["signature"] = self.signature()
        return data


def normalize_evalue(evalue: str) -> str:
    """evalue without what changes from run to run: ANSI, object addresses, the hashed cell
    file names and execution counts, whitespace."""
    text = strip_ansi(evalue or "")
    text = _SYNTAX_EVALUE_LINE.sub("", text)  # "(3602400769.py, line 1)": the line is in line_text
    text = re.sub(r"0x[0-9a-fA-F]{6,}", "0x?", text)
    text = re.sub(r"\S*ipykernel_\d+[/\\]\d+\.py", "<cell>", text)
    text = re.sub(r"In ?\[\d+\]", "In[?]", text)
    return " ".join(text.split())


def _short(text: str, limit: int) -> str:
    text = text.strip()
    if len(text) <= limit:
        return text
    if limit <= 1:
        return "…"[:max(0, limit)]
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit * 0.6:
        cut = cut[:space]
    return cut.rstrip() + "…"


def _render_error(fb: ErrorFeedback, max_chars: int) -> str:
    evalue = _short(strip_ansi(fb.evalue or ""), MAX_EVALUE_CHARS)
    headline = f"{fb.ename}: {evalue}" if evalue else fb.ename
    where = (f"line {fb.line}: {_short(fb.line_text or '', MAX_LINE_CHARS)}"
             if fb.line is not None else "line: unknown (no frame of this cell in the traceback)")
    names = f"relevant names: {', '.join(fb.names)}" if fb.names else None
    columns = None
    if fb.columns:
        listed = []
        for name, cols in fb.columns.items():
            shown = ", ".join(repr(c) for c in cols[:MAX_COLUMNS_SHOWN])
            more = f", ... (+{len(cols) - MAX_COLUMNS_SHOWN} more)" if len(
                cols) > MAX_COLUMNS_SHOWN else ""
            listed.append(f"  {name}: {_short(shown, 700)}{more}")
        columns = "available columns:\n" + "\n".join(listed)
    hint = f"hint: {fb.hint}" if fb.hint else None

    # priority when space is short: headline, line, hint, names, columns, then frames
    blocks: dict[str, str | None] = {"headline": headline, "line": where, "names": names,
                                     "columns": columns, "hint": hint}
    order = ["headline", "line", "names", "columns", "hint"]

    def joined() -> str:
        return "\n".join(b for k in order if (b := blocks[k]))

    for drop in ("columns", "names"):
        if len(joined()) <= max_chars:
            break
        blocks[drop] = None
    text = joined()
    if len(text) > max_chars:
        return _short(text, max_chars)

    if not fb.frames:
        return text
    title = "traceback (most recent call last):"
    room = max_chars - len(text) - len(title) - 2
    kept: list[str] = []
    for frame in reversed(fb.frames):  # innermost frames are where it broke
        omitted = len(fb.frames) - len(kept) - 1
        note = len(f"... {omitted} outer frame(s) omitted") + 1 if omitted else 0
        if len(frame) + 1 + note > room:
            break
        kept.insert(0, frame)
        room -= len(frame) + 1
    if not kept:
        return text
    omitted = len(fb.frames) - len(kept)
    lines = [title]
    if omitted:
        lines.append(f"... {omitted} outer frame(s) omitted")
    lines.extend(kept)
    return text + "\n" + "\n".join(lines)


def severity_rank(value: Any) -> int:
    try:
        return Severity(str(value)).rank
    except ValueError:
        return -1


def _sorted_findings(findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    def key(f: dict[str, Any]) -> tuple[int, float]:
        try:
            confidence = float(f.get("confidence", 0.0))
        except (TypeError, ValueError):
            confidence = 0.0
        return (-severity_rank(f.get("severity")), -confidence)

    return sorted(findings, key=key)


def _evidence_lines(f: dict[str, Any]) -> list[int]:
    evidence = f.get("evidence")
    lines = evidence.get("lines") if isinstance(evidence, dict) else None
    return [n for n in (lines or []) if isinstance(n, int) and not isinstance(n, bool)]


def _render_finding(i: int, f: dict[str, Any], code_lines: list[str]) -> str:
    severity = f.get("severity", "?")
    try:
        confidence = f"{float(f.get('confidence', 0.0)):.2f}"
    except (TypeError, ValueError):
        confidence = "?"
    title = f.get("title") or f.get("rule_id") or "finding"
    lines = [f"{i}. [{f.get('rule_id', '')}] {title} ({severity}, confidence {confidence})"]
    if f.get("explanation"):
        lines.append(f"   why: {_short(str(f['explanation']), 700)}")
    evidence = f.get("evidence")
    if not isinstance(evidence, dict):
        evidence = {}
    ev_lines = _evidence_lines(f)
    for n in ev_lines[:MAX_EVIDENCE_LINES]:
        source = code_lines[n - 1].strip() if 1 <= n <= len(code_lines) else ""
        lines.append(f"   evidence line {n}: {_short(source, MAX_LINE_CHARS)}" if source
                     else f"   evidence line {n}")
    if len(ev_lines) > MAX_EVIDENCE_LINES:
        lines.append(f"   (+{len(ev_lines) - MAX_EVIDENCE_LINES} more evidence lines)")
    values = evidence.get("values") or {}
    if isinstance(values, dict) and values:
        shown = ", ".join(f"{k}={v!r}" for k, v in list(values.items())[:8])
        lines.append(f"   measured: {_short(shown, 400)}")
    if f.get("suggestion"):
        lines.append(f"   fix: {_short(str(f['suggestion']), 600)}")
    return "\n".join(lines)


def _compact_finding(i: int, f: dict[str, Any]) -> str:
    """A finding in two lines (what and how to fix), when the full item does not fit."""
    title = f.get("title") or f.get("rule_id") or "finding"
    text = f"{i}. [{f.get('rule_id', '')}] {_short(str(title), 160)}"
    if f.get("suggestion"):
        text += f"\n   fix: {_short(str(f['suggestion']), 240)}"
    return text


def _render_critique(fb: ErrorFeedback, max_chars: int) -> str:
    code_lines = fb.code.splitlines()
    n = len(fb.findings)
    head = (f"{CRITIQUE_ENAME}: the code ran, but the critic blocks its result "
            f"({n} finding{'s' if n != 1 else ''}, most severe first):")
    room = max_chars - len(head) - len(CRITIQUE_CLOSING) - 2
    kept: list[str] = []
    for i, f in enumerate(fb.findings, 1):
        left = n - i
        note = len(f"... {left} more: ") + sum(len(str(g.get("rule_id", ""))) + 2
                                              for g in fb.findings[i:]) if left else 0
        for item in (_render_finding(i, f, code_lines), _compact_finding(i, f)):
            if len(item) + 1 + min(note, 120) <= room:
                break
        else:
            if kept:
                break
            item = _short(_compact_finding(i, f), max(20, room - min(note, 120) - 1))
        kept.append(item)
        room -= len(item) + 1
    dropped = fb.findings[len(kept):]
    parts = [head, *kept]
    if dropped:
        more = f"... {len(dropped)} more: " + ", ".join(str(f.get("rule_id", "")) for f in dropped)
        parts.append(_short(more, max(20, room)))
    parts.append(CRITIQUE_CLOSING)
    text = "\n".join(parts)
    return text if len(text) <= max_chars else _short(text, max_chars)


# -- context for names and hints ---------------------------------------------------------

_STRING = re.compile(r"""(?:\b[rRbBuUfF]{1,2})?"""
                     r"""(?:'''[\s\S]*?'''|\"\"\"[\s\S]*?\"\"\"|"""
                     r"""'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")""")
_IDENT = re.compile(r"(?<![\w.])[A-Za-z_]\w*")
_SUBSCRIPT_KEY = re.compile(r"""\b([A-Za-z_]\w*)\s*\[\s*(['"])([^'"\n]+)\2\s*\]""")
_BUILTINS = set(dir(builtins))


def names_in_line(line: str | None) -> list[str]:
    """Identifiers the line reads or writes: no keywords, strings, attribute names or keyword
    argument names."""
    if not line:
        return []
    text = _STRING.sub('""', line)
    text = text.split("#", 1)[0]
    found: list[str] = []
    for m in _IDENT.finditer(text):
        name = m.group(0)
        if keyword.iskeyword(name) or keyword.issoftkeyword(name):
            continue
        after = text[m.end():].lstrip()
        before = text[: m.start()].rstrip()
        if after.startswith("=") and not after.startswith("==") and before.endswith(("(", ",")):
            continue  # a keyword argument
        if name not in found:
            found.append(name)
    return found


def _defined_names(code: str) -> dict[str, int]:
    """Names this code assigns, imports or defines -> first line."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return {}
    found: dict[str, int] = {}
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names = [node.id]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names = [node.name]
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = [(a.asname or a.name).split(".")[0] for a in node.names]
        elif isinstance(node, ast.arg):
            names = [node.arg]
        for name in names:
            line = getattr(node, "lineno", 0)
            if name not in found or line < found[name]:
                found[name] = line
    return found


def _is_frame(v: VariableInfo) -> bool:
    return bool(v.columns) or v.type.split(".")[-1] == "DataFrame"


def _close(word: str, candidates: Iterable[str], n: int = 3, cutoff: float = 0.6) -> list[str]:
    pool = [c for c in dict.fromkeys(candidates) if c != word]
    folded = [c for c in pool if c.strip().lower() == word.strip().lower()]
    rest = difflib.get_close_matches(word, pool, n=n, cutoff=cutoff)
    lowered = {c.lower(): c for c in pool}
    rest += [lowered[c] for c in difflib.get_close_matches(word.lower(), list(lowered), n=n,
                                                           cutoff=cutoff)]
    return list(dict.fromkeys(folded + rest))[:n]


@dataclass
class _Context:
    ename: str
    evalue: str
    line_text: str | None
    code: str
    frames: list[_Frame]
    variables: list[VariableInfo]
    line_names: list[str]
    subject: list[str] = field(default_factory=list)  # the missing key/name/attribute
    suggestions: list[str] = field(default_factory=list)  # close matches for it

    @property
    def frame_columns(self) -> dict[str, list[str]]:
        return {v.name: [str(c) for c in (v.columns or {})] for v in self.variables
                if _is_frame(v)}

    @property
    def frames_on_line(self) -> dict[str, list[str]]:
        cols = self.frame_columns
        return {name: cols[name] for name in self.line_names if name in cols}

    @property
    def all_columns(self) -> list[str]:
        source = self.frames_on_line or self.frame_columns
        return list(dict.fromkeys(c for cols in source.values() for c in cols))

    def in_library(self, *fragments: str) -> bool:
        paths = [(f.path or "").replace("\\", "/") for f in self.frames]
        return any(frag in p for p in paths for frag in fragments)

    @property
    def pandas(self) -> bool:
        return self.in_library("/pandas/", "pandas/_libs")


def _literal(text: str) -> Any:
    try:
        return ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return text.strip()


def _did_you_mean(options: list[str]) -> str:
    if not options:
        return ""
    return " Did you mean " + " or ".join(repr(o) for o in options) + "?"


# -- hints: a table (services/error_hints.toml) and the few builders it names -------------

HINTS_TABLE = Path(__file__).with_name("error_hints.toml")
HintFn = Callable[[_Context, re.Match[str]], str | None]


def _key_error_subject(ctx: _Context) -> None:
    key = _literal(ctx.evalue)
    keys: list[Any] = [key]
    if isinstance(key, str):
        listed = re.search(r"\[(.*)\] not in index", key) or re.search(
            r"None of \[Index\(\[(.*?)\]", key)
        if listed:
            keys = re.findall(r"'([^']*)'", listed.group(1)) or [listed.group(1)]
    ctx.subject = [str(k) for k in keys]
    columns = ctx.all_columns
    for k in keys:
        if isinstance(k, str):
            ctx.suggestions += _close(k, columns)
    ctx.suggestions = list(dict.fromkeys(ctx.suggestions))


def _key_error(ctx: _Context, m: re.Match[str]) -> str | None:
    key = _literal(ctx.evalue)
    many = len(ctx.subject) > 1
    listed = ctx.subject and ctx.subject != [str(key)]  # "['a'] not in index" and the like
    shown = ", ".join(repr(k) for k in ctx.subject) if listed else repr(key)
    if ctx.in_library("reshape/merge.py"):
        return (f"the merge key {shown} is not a column of both frames: check both frames' "
                "columns, rename the key to match, or use left_on=/right_on=." +
                _did_you_mean(ctx.suggestions))
    if not (ctx.pandas or ctx.frames_on_line or ctx.suggestions):
        return (f"the key {shown} is not in the mapping: check its keys (list(d)) or use "
                "d.get(key, default).")
    if isinstance(key, int | float) and not isinstance(key, bool):
        return (f"row label {shown} is not in the index: use .iloc[...] for positions, or "
                "check df.index (rows may have been filtered or the index reset).")
    if ".loc[" in (ctx.line_text or "") and not ctx.suggestions and not many:
        return (f"{shown} is neither a row label nor a column: check df.index and df.columns "
                "(.loc takes [rows, columns]).")
    fix = _did_you_mean(ctx.suggestions) or " Use one of the columns listed below."
    return (f"{shown} {'are not columns' if many else 'is not a column'} of the DataFrame.{fix}"
            " Column names are case- and whitespace-sensitive; create a column before using "
            "it.")


def _name_error_subject(ctx: _Context) -> None:
    m = re.search(r"name '(\w+)' is not defined|variable '(\w+)'", ctx.evalue)
    if not m:
        return
    name = m.group(1) or m.group(2)
    ctx.subject = [name]
    pool = [v.name for v in ctx.variables] + list(_defined_names(ctx.code))
    ctx.suggestions = _close(name, pool, cutoff=0.7)


_COMMON_IMPORTS = {
    "pd": "import pandas as pd", "np": "import numpy as np",
    "plt": "import matplotlib.pyplot as plt", "sm": "import statsmodels.api as sm",
    "smf": "import statsmodels.formula.api as smf", "stats": "from scipy import stats",
    "sns": "import seaborn as sns (only if seaborn is installed)",
    "train_test_split": "from sklearn.model_selection import train_test_split",
    "cross_val_score": "from sklearn.model_selection import cross_val_score",
    "StandardScaler": "from sklearn.preprocessing import StandardScaler",
    "LinearRegression": "from sklearn.linear_model import LinearRegression",
    "LogisticRegression": "from sklearn.linear_model import LogisticRegression",
    "Pipeline": "from sklearn.pipeline import Pipeline", "math": "import math",
    "RandomForestClassifier": "from sklearn.ensemble import RandomForestClassifier",
    "accuracy_score": "from sklearn.metrics import accuracy_score",
}


def _name_error(ctx: _Context, m: re.Match[str]) -> str | None:
    name = m.group(1)
    if name in _COMMON_IMPORTS:
        return f"`{name}` is not imported in this kernel: add `{_COMMON_IMPORTS[name]}`."
    later = _defined_names(ctx.code).get(name)
    if later:
        return (f"`{name}` is used before it is assigned on line {later} of this cell: move the "
                "assignment above its first use.")
    return (f"`{name}` is not defined in the kernel.{_did_you_mean(ctx.suggestions)} Define it "
            "in this cell, or the earlier cell that creates it has not run (or the kernel "
            "restarted): recompute it here.")


def _attribute_subject(ctx: _Context) -> None:
    m = re.search(r"has no attribute '(\w+)'", ctx.evalue)
    if not m:
        return
    attr = m.group(1)
    ctx.subject = [attr]
    if re.search(r"'(DataFrame|Series|DataFrameGroupBy|SeriesGroupBy)' object", ctx.evalue):
        ctx.suggestions = _close(attr, ctx.all_columns)


_PANDAS_REMOVED = {
    "append": "pd.concat([df, other])", "iteritems": ".items()", "applymap": ".map(func)",
    "ix": ".loc[...] (labels) or .iloc[...] (positions)", "as_matrix": ".to_numpy()",
    "is_monotonic": ".is_monotonic_increasing", "get_value": ".at[row, col]",
    "set_value": ".at[row, col] = value", "sort": ".sort_values(...)", "mad":
    "(s - s.mean()).abs().mean()", "lookup": ".loc / .to_numpy() indexing", "bool": ".item()",
    "pad": ".ffill()", "backfill": ".bfill()", "swapaxes": ".transpose()",
    "convert_objects": ".infer_objects()", "select": ".loc with a boolean mask",
}
_PANDAS_ONLY = {"iloc", "loc", "columns", "head", "tail", "values", "apply", "groupby",
                "value_counts", "dropna", "fillna", "isna", "isnull", "describe", "index",
                "to_numpy", "merge", "plot", "reset_index", "sort_values", "unique", "nunique"}


def _pandas_attribute(ctx: _Context, m: re.Match[str]) -> str | None:
    kind, attr = m.group(1), m.group(2)
    if attr in _PANDAS_REMOVED:
        return f"`.{attr}` was removed from pandas: use {_PANDAS_REMOVED[attr]}."
    columns = ctx.all_columns
    exact = [c for c in columns if c == attr]
    if exact or ctx.suggestions:
        col = exact[0] if exact else ctx.suggestions[0]
        return (f"`{attr}` is not a {kind} method; if you meant the column {col!r}, use "
                f"df[{col!r}] (bracket access works for every column name).")
    return (f"a {kind} has no attribute `{attr}`: if it is meant as a column, use df[{attr!r}] "
            "after checking df.columns; otherwise check the pandas method name.")


def _ndarray_attribute(ctx: _Context, m: re.Match[str]) -> str | None:
    attr = m.group(1)
    if attr in _PANDAS_ONLY:
        return (f"this is a NumPy array, not a pandas object, so it has no `.{attr}` (scalers, "
                "train_test_split on .values, and np functions return arrays): keep the "
                "DataFrame (e.g. set_output(transform='pandas')) or use array indexing.")
    return None


def _string_to_float(ctx: _Context, m: re.Match[str]) -> str | None:
    value = m.group(1).strip()
    return (f"a column holds text ({_short(value, 60)}): encode categoricals (pd.get_dummies or "
            "OneHotEncoder in a ColumnTransformer) or select numeric columns "
            "(df.select_dtypes('number')); numbers stored as text: pd.to_numeric(col, "
            "errors='coerce').")


def _numpy_index(ctx: _Context, m: re.Match[str]) -> str | None:
    index, axis, size = m.groups()
    return (f"index {index} on axis {axis} of size {size}: valid indices are 0..{int(size) - 1}; "
            "loop over range(x.shape[axis]) and check that an empty/filtered array is "
            "handled.")


_ALTERNATIVES = {
    "seaborn": "matplotlib.pyplot (plt.scatter, plt.hist, plt.boxplot) with pandas .plot",
    "plotly": "matplotlib.pyplot", "xgboost": "sklearn.ensemble.HistGradientBoosting*",
    "lightgbm": "sklearn.ensemble.HistGradientBoosting*",
    "catboost": "sklearn.ensemble.HistGradientBoosting*",
    "statsmodels": "scipy.stats (tests) or sklearn.linear_model (regression)",
    "pingouin": "scipy.stats", "torch": "sklearn.neural_network.MLPClassifier/MLPRegressor",
    "tensorflow": "sklearn.neural_network.MLPClassifier/MLPRegressor",
    "keras": "sklearn.neural_network.MLPClassifier/MLPRegressor",
    "scipy": "numpy", "polars": "pandas", "sklearn.cross_validation": "sklearn.model_selection",
    "sklearn.grid_search": "sklearn.model_selection",
}


def _missing_module(ctx: _Context, m: re.Match[str]) -> str | None:
    module = m.group(1)
    alt = _ALTERNATIVES.get(module) or _ALTERNATIVES.get(module.split(".")[0])
    instead = f" (e.g. {alt})" if alt else ""
    return (f"`{module}` is not installed in the kernel: do not retry the same import and do "
            f"not pip install; use a package that is installed{instead}.")


HINT_BUILDERS: dict[str, HintFn] = {
    "key_error": _key_error, "name_error": _name_error, "pandas_attribute": _pandas_attribute,
    "ndarray_attribute": _ndarray_attribute, "string_to_float": _string_to_float,
    "numpy_index": _numpy_index, "missing_module": _missing_module,
}


@dataclass(frozen=True)
class _HintRow:
    enames: frozenset[str] | None  # None: any exception
    pattern: re.Pattern[str]
    text: str | None
    builder: HintFn | None

    def hint(self, ctx: _Context, m: re.Match[str]) -> str | None:
        if self.builder is not None:
            return self.builder(ctx, m)
        assert self.text is not None
        return self.text.format(m.group(0), *(g or "" for g in m.groups()))


def load_hints(path: Path = HINTS_TABLE) -> list[_HintRow]:
    """The hint table, in order; a malformed row fails here, at import, naming the row."""
    rows: list[_HintRow] = []
    for i, row in enumerate(tomllib.loads(path.read_text(encoding="utf-8"))["hint"], 1):
        unknown = set(row) - {"errors", "evalue", "text", "builder"}
        if unknown or ("text" in row) == ("builder" in row) or "evalue" not in row:
            raise ValueError(f"{path.name} row {i}: needs `evalue` and one of `text` or "
                             f"`builder` (unknown keys: {sorted(unknown)})")
        if "builder" in row and row["builder"] not in HINT_BUILDERS:
            raise ValueError(f"{path.name} row {i}: no builder {row['builder']!r}")
        enames = frozenset(row["errors"].split()) if "errors" in row else None
        rows.append(_HintRow(enames, re.compile(row["evalue"], re.IGNORECASE | re.DOTALL),
                             row.get("text"), HINT_BUILDERS.get(row.get("builder", ""))))
    return rows


_HINTS = load_hints()


def find_hint(ctx: _Context) -> str | None:
    for row in _HINTS:
        if row.enames is not None and ctx.ename not in row.enames:
            continue
        m = row.pattern.search(ctx.evalue)
        if m is None:
            continue
        hint = row.hint(ctx, m)
        if hint:
            return hint
    return None


_SUBJECTS: dict[str, Callable[[_Context], None]] = {
    "KeyError": _key_error_subject, "NameError": _name_error_subject,
    "UnboundLocalError": _name_error_subject, "AttributeError": _attribute_subject,
}


# -- frames shown to the generator ----------------------------------------------------

_SITE = re.compile(r"^.*?[/\\](?:site|dist)-packages[/\\]")


def _trim_frame(frame: _Frame, this_cell: bool, offset: int) -> str:
    lines = frame.body.splitlines()
    header = lines[0].strip() if lines else ""
    if frame.kind == "file" and frame.path:
        short = _SITE.sub("", frame.path)
        func = frame.func or ""
        if len(func) > 80:
            func = func.split("(", 1)[0] + "(...)"
        header = f"File {short}:{frame.line}" + (f", in {func}" if func else "")
    elif frame.kind in ("cell", "anon_cell"):
        where = "this cell" if this_cell else f"an earlier cell (In[{frame.cell}])"
        line = (frame.line or 0) + (offset if this_cell else 0)
        header = f"{where}, line {line}" + (f", in {frame.func}" if frame.func else "")
    body = [ln for ln in lines[1:]
            if _NO_SOURCE not in ln and not ln.strip().startswith("(...)")]
    arrow = next((i for i, ln in enumerate(body) if _ARROW.match(ln)), None)
    if arrow is not None:
        # an earlier cell's function: a little context helps; this cell and library: the line
        context = body[max(0, arrow - 2): arrow] if frame.kind != "file" and not this_cell else []
        body = [*context, body[arrow]]
    else:  # Plain mode or a SyntaxError: source line and caret, indentation kept
        body = body[:3]
    if this_cell and offset:
        body = [_renumber(ln, offset) for ln in body]
    shown = [header] + [_cut(ln.rstrip(), MAX_LINE_CHARS) for ln in body if ln.strip()]
    return "\n".join(shown)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _renumber(line: str, offset: int) -> str:
    m = re.match(r"^(\s*-*>?\s*)(\d+)(.*)$", line)
    if not m:
        return line
    return f"{m.group(1)}{int(m.group(2)) + offset}{m.group(3)}"


# -- the analyzer ----------------------------------------------------------------------


class ErrorAnalyzer:
    """Turns one attempt's error into `ErrorFeedback`. Stateless and cheap (no kernel)."""

    def __init__(self, *, max_frames: int = MAX_FRAMES) -> None:
        self.max_frames = max_frames

    def analyze(self, error: dict[str, Any], code: str, *, execution_count: int | None = None,
                variables: list[VariableInfo] | None = None) -> ErrorFeedback:
        ename = strip_ansi(str(error.get("ename") or "Error"))
        evalue = strip_ansi(str(error.get("evalue") or ""))
        code = code or ""
        if ename == CRITIQUE_ENAME:
            return self._critique(error, ename, evalue, code)

        frames = parse_traceback(error.get("traceback"))
        chosen = _this_cell_frame(frames, execution_count)
        offset = _leading_blank_lines(code)
        code_lines = code.splitlines()
        line: int | None = None
        tb_text: str | None = None
        if chosen is not None and chosen.line is not None:
            line = chosen.line + offset
            tb_text = chosen.text
            magic_line = _cell_magic_body_line(chosen, frames)
            if magic_line is not None:
                line = magic_line + offset
        elif ename in SYNTAX_ENAMES:
            m = _SYNTAX_EVALUE_LINE.search(evalue)
            if m:
                line = int(m.group(1)) + offset
        line_text: str | None = None
        if line is not None and 1 <= line <= len(code_lines):
            line_text = code_lines[line - 1].rstrip()
        elif tb_text:
            line_text = tb_text

        variables = list(variables or [])
        ctx = _Context(ename, evalue, line_text, code, frames, variables,
                       names_in_line(line_text))
        if ename in _SUBJECTS:
            _SUBJECTS[ename](ctx)
        hint = find_hint(ctx)
        names = self._names(ctx)
        columns = self._columns(ctx)
        shown = self._frames(frames, chosen, offset)
        return ErrorFeedback("error", ename, evalue, line, line_text, names, hint, [],
                             shown, columns, code=code)

    # -- parts -------------------------------------------------------------------------

    def _critique(self, error: dict[str, Any], ename: str, evalue: str,
                  code: str) -> ErrorFeedback:
        raw = error.get("findings") or []
        findings = [f.to_dict() if hasattr(f, "to_dict") else dict(f) for f in raw]
        findings = _sorted_findings(findings)
        code_lines = code.splitlines()
        line = next((n for f in findings for n in _evidence_lines(f)), None)
        line_text = (code_lines[line - 1].rstrip()
                     if line is not None and 1 <= line <= len(code_lines) else None)
        return ErrorFeedback("critique", ename, evalue, line, line_text,
                             names_in_line(line_text)[:MAX_NAMES], None, findings, code=code)

    @staticmethod
    def _names(ctx: _Context) -> list[str]:
        known = {v.name for v in ctx.variables}
        modules = {v.name for v in ctx.variables if v.type.startswith("module")}
        on_line = [n for n in ctx.line_names
                   if n not in modules and (n in known or n not in _BUILTINS)]
        columns = set(ctx.all_columns)
        keys = [m.group(3) for m in _SUBSCRIPT_KEY.finditer(ctx.line_text or "")
                if m.group(3) in columns]
        names = [*ctx.subject, *ctx.suggestions, *on_line, *keys]
        return list(dict.fromkeys(n for n in names if n))[:MAX_NAMES]

    @staticmethod
    def _columns(ctx: _Context) -> dict[str, list[str]]:
        frames = ctx.frames_on_line
        if not frames and ctx.ename in ("KeyError", "AttributeError") and (
                ctx.suggestions or ctx.pandas or "DataFrame" in ctx.evalue):
            frames = ctx.frame_columns
        return dict(list(frames.items())[:MAX_FRAMES_LISTED])

    def _frames(self, frames: list[_Frame], chosen: _Frame | None, offset: int) -> list[str]:
        if not frames:
            return []
        last = [f for f in frames if f.section == frames[-1].section]
        if chosen is not None and chosen in last:
            start = last.index(chosen)
            picked = [chosen, *last[start + 1:][-self.max_frames:]]
        else:
            picked = last[-(self.max_frames + 1):]
        this = chosen.cell if chosen is not None else None
        return [_trim_frame(f, this_cell=(f is chosen or (
            this is not None and f.cell == this and f.kind == "cell")), offset=offset)
            for f in picked]


def _this_cell_frame(frames: list[_Frame], execution_count: int | None) -> _Frame | None:
    cells = [f for f in frames if f.kind == "cell" and f.cell is not None]
    if execution_count is not None:
        own = [f for f in cells if f.cell == execution_count]
        if own:
            return own[-1]
    if cells:
        top = max(f.cell for f in cells if f.cell is not None)
        return [f for f in cells if f.cell == top][-1]
    anon = [f for f in frames if f.kind == "anon_cell"]
    if anon:  # plain format: the outermost cell frame of the final exception is the cell run
        final = [f for f in anon if f.section == frames[-1].section] or anon
        path = final[0].path
        return [f for f in final if f.path == path][-1]
    return None


def _cell_magic_body_line(chosen: _Frame, frames: list[_Frame]) -> int | None:
    """`%%time` runs the body as `<timed exec>`: its line K is line K+1 of the cell."""
    if not (chosen.text or "").startswith("get_ipython().run_cell_magic("):
        return None
    after = frames[frames.index(chosen) + 1:]
    for f in after:
        if f.path in ("<timed exec>", "<timed eval>") and f.line:
            return f.line + 1
    return None
