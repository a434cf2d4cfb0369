"""The optional Claude critic: one Messages API call per reviewed cell, structured output
through a forced `report_findings` tool, and an evidence check on every finding.

Pure like the rest of `critics`: no `anthropic` import. The client (an
`anthropic.AsyncAnthropic`, built by `services.anthropic_client.make_async_client`) is
injected and used duck-typed: `await client.messages.create(...)`.

A finding must quote evidence verbatim: a whole statement or line of the code (the cell's
or an earlier cell's) or a whole line of its output (a warning's message counts as one). One
whose quotes are all missing, fragments (`fit(X)` of a longer line) or empty is kept but
downgraded: severity two steps lower, confidence halved, `evidence["unverified"] = True`, so
it can never block a cell (critical becomes medium). A verified finding still blocks only
when a rule or kernel fact corroborates it (`critics.llm_blocking`); the model is asked at
temperature 0."""

from __future__ import annotations

import ast
import asyncio
import io
import json
import re
import tokenize
from typing import Any

from .evidence import Evidence
from .findings import Finding, Severity
from .llm_facts import render_facts

TOOL_NAME = "report_findings"

FAMILIES = (
    "leakage", "target_leakage", "circular_validation", "multiple_comparisons",
    "parametric_assumptions", "pseudoreplication", "correlation_misuse", "suspicious_values",
    "data_loss", "unseeded_randomness", "other",
)
SEVERITIES = tuple(s.value for s in Severity)

VERIFIED_CONFIDENCE_CAP = 0.9  # the model's word alone never reaches certainty
UNVERIFIED_SEVERITY_STEPS = 2
MIN_QUOTE_CHARS = 3  # a shorter quote ("X", "=") proves nothing
MAX_FINDINGS = 20
CACHED = {"type": "ephemeral"}  # a prompt-cache breakpoint
USAGE_KEYS = ("input_tokens", "output_tokens", "cache_read_input_tokens",
              "cache_creation_input_tokens")
DEFAULT_DEADLINE = 15.0  # seconds for one cell's review, every retry of the client included

SYSTEM_PROMPT = """\
You are a methodologist (statistics and machine learning) reviewing one Jupyter notebook \
cell. The cell ran without error; your job is to judge whether the result it reports is \
methodologically sound.

Report only methodological flaws that make the reported result invalid or misleading, for \
example: preprocessing or feature selection fit before the train/test split (leakage), the \
target or a proxy of it among the features, hyperparameters or models selected on the test \
set, many tests without a multiple-comparison correction, parametric tests on clearly \
skewed or tiny samples, repeated measures treated as independent (pseudoreplication), \
Pearson correlation on categorical or ordinal codes or correlation reported as causation, \
impossible or suspicious values (negative R^2 reported as a score, accuracy 1.0, p > 1), \
silent loss of many rows, unseeded randomness in a reported number.

Do not report style, naming, performance, missing comments, missing plots or anything \
that does not change whether the result can be trusted. Do not guess: if the evidence does \
not show the problem, do not report it.

Severity: "critical" only when the reported result is invalid as it stands; "high" when it \
is very likely wrong or misleading; "medium" or lower for weaker concerns. Confidence is \
your probability (0 to 1) that the flaw is real.

Every finding must quote verbatim evidence: whole statements or whole lines copied exactly \
from the cell code (without the line-number prefix), or whole lines of its output, that show \
the problem, and the cell's line numbers involved. Fragments of a line do not count as \
evidence. Earlier cells are context; quote them only when the flaw is there.

Call the report_findings tool exactly once. For a sound cell call it with an empty \
findings list."""


def _tool_schema() -> dict[str, Any]:
    finding = {
        "type": "object",
        "properties": {
            "family": {"type": "string", "enum": list(FAMILIES),
                       "description": "The kind of flaw ('other' when none fits)."},
            "title": {"type": "string", "description": "One line naming the flaw."},
            "explanation": {"type": "string",
                            "description": "Why the reported result is invalid or misleading."},
            "severity": {"type": "string", "enum": list(SEVERITIES)},
            "confidence": {"type": "number", "minimum": 0, "maximum": 1},
            "quotes": {"type": "array", "items": {"type": "string"},
                       "description": "Verbatim snippets from the code or output that show "
                                      "the problem."},
            "lines": {"type": "array", "items": {"type": "integer", "minimum": 1},
                      "description": "1-based line numbers in the reviewed cell."},
            "suggestion": {"type": "string", "description": "The methodological fix."},
        },
        "required": ["family", "title", "explanation", "severity", "confidence", "quotes"],
    }
    return {
        "name": TOOL_NAME,
        "description": "Report the methodological flaws found in the cell; an empty list when "
                       "the analysis is sound.",
        "input_schema": {
            "type": "object",
            "properties": {"findings": {"type": "array", "items": finding}},
            "required": ["findings"],
        },
    }


REPORT_TOOL = _tool_schema()


class ClaudeCritic:
    """`await ClaudeCritic(client, model=...).review(evidence) -> list[Finding]`.

    Raises (so `AnalysisCritic` records a `claude` critic error) on API errors and on a reply
    with no usable `report_findings` call; malformed single findings are skipped."""

    def __init__(self, client: Any, *, model: str, max_tokens: int = 2048,
                 temperature: float | None = 0.0, max_output_chars: int = 6000,
                 max_code_chars: int = 12000, blocks_alone: bool = False,
                 deadline: float | None = DEFAULT_DEADLINE) -> None:
        self.client = client
        self.model = model
        self.max_tokens = max_tokens
        # a review is a judgement, not a draft: 0 by default (sent through extra_body, as
        # the SDK's messages.create has no such argument); None leaves it out, for models
        # that reject it
        self.temperature = temperature
        self.blocks_alone = blocks_alone  # read by AnalysisCritic (critics.llm_blocking)
        # one ceiling for the whole review of a cell, the client's retries and waits
        # included: after it the rules' critique stands and the critique says why
        self.deadline = deadline
        self.max_output_chars = max_output_chars
        self.max_code_chars = max_code_chars
        self.last_usage: dict[str, int] | None = None
        self.last_stop_reason: str | None = None
        self.skipped_findings = 0  # malformed findings dropped from the last reply

    # -- the call ---------------------------------------------------------------------------

    def request(self, evidence: Evidence) -> dict[str, Any]:
        """The keyword arguments of the `messages.create` call for this evidence. Stable
        first, marked for prompt caching: the tool and system prompt (one breakpoint covers
        both), then the notebook's earlier cells; the reviewed cell last."""
        kwargs: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "tools": [REPORT_TOOL],
            "system": [{"type": "text", "text": SYSTEM_PROMPT, "cache_control": CACHED}],
            "messages": [{"role": "user", "content": self.user_blocks(evidence)}],
            "tool_choice": {"type": "tool", "name": TOOL_NAME},
        }
        if self.temperature is not None:
            kwargs["extra_body"] = {"temperature": self.temperature}
        return kwargs

    async def review(self, evidence: Evidence) -> list[Finding]:
        self.last_usage = None
        self.last_stop_reason = None
        self.skipped_findings = 0
        if not evidence.code.strip():
            return []
        try:
            response = await self._create(self.request(evidence))
        except json.JSONDecodeError as exc:  # the SDK parses the body with json.loads
            raise ValueError(f"Claude critic: the API reply is not valid JSON ({exc})") from exc
        usage = _get(response, "usage")
        self.last_usage = {key: int(_get(usage, key) or 0) for key in USAGE_KEYS}
        self.last_stop_reason = _get(response, "stop_reason")
        raw = parse_reply(response, max_tokens=self.max_tokens)
        findings: list[Finding] = []
        checker = _QuoteChecker(evidence)
        for item in raw[:MAX_FINDINGS]:
            finding = _to_finding(item, evidence, checker)
            if finding is None:
                self.skipped_findings += 1
            else:
                findings.append(finding)
        return findings

    async def _create(self, kwargs: dict[str, Any]) -> Any:
        call = self.client.messages.create(**kwargs)
        if self.deadline is None:
            return await call
        try:
            return await asyncio.wait_for(call, self.deadline)
        except TimeoutError:
            raise TimeoutError(f"Claude critic: the LLM timed out (no reply within the "
                               f"{self.deadline:g} s deadline per cell); the rules' "
                               "critique stands") from None

    # -- the prompt -------------------------------------------------------------------------

    def user_message(self, evidence: Evidence) -> str:
        """The user message's text (its blocks joined)."""
        return "\n\n".join(b["text"] for b in self.user_blocks(evidence))

    def user_blocks(self, evidence: Evidence) -> list[dict[str, Any]]:
        """The earlier cells (a cached block, when there are any), then the reviewed cell."""
        cell = numbered_lines(evidence.code, self.max_code_chars)
        prior = evidence.prior_code.strip()
        prior_budget = self.max_code_chars - len(cell)
        blocks: list[dict[str, Any]] = []
        if prior and prior_budget > 200:
            blocks.append({"type": "text", "cache_control": CACHED, "text": (
                "<earlier_cells note=\"context only; the last part of the notebook's earlier "
                f"code\">\n{_tail(prior, prior_budget)}\n</earlier_cells>")})
        blocks.append({"type": "text", "text": self._cell_text(evidence, cell)})
        return blocks

    def _cell_text(self, evidence: Evidence, cell: str) -> str:
        parts = ["Review this notebook cell. It ran without error.",
                 f"<cell_code>\n{cell}\n</cell_code>"]
        parts.append(f"<outputs>\n{self._outputs(evidence)}\n</outputs>")
        if evidence.warnings:
            lines = [f"- {w.category}: {w.message}" for w in evidence.warnings[:20]]
            warnings = _head("\n".join(lines), self.max_output_chars // 3)
            parts.append(f"<warnings>\n{warnings}\n</warnings>")
        facts = self._facts(evidence)
        if facts:
            parts.append(f"<kernel_facts note=\"read from the kernel after the cell ran\">\n"
                         f"{facts}\n</kernel_facts>")
        parts.append("Report the methodological flaws with report_findings (an empty list if "
                     "the cell is sound).")
        return "\n\n".join(parts)

    def _outputs(self, evidence: Evidence) -> str:
        budget = self.max_output_chars
        sections: list[str] = []
        stdout = evidence.stdout.strip()
        plain: list[str] = []
        for o in evidence.outputs:
            text = (o.get("data") or {}).get("text/plain")
            if text:
                plain.append(text if isinstance(text, str) else "".join(text))
        plain_text = "\n".join(p.strip() for p in plain if p.strip())
        if stdout and plain_text:
            sections.append(f"[stdout]\n{middle_out(stdout, budget * 2 // 3)}")
            sections.append(f"[results]\n{middle_out(plain_text, budget // 3)}")
        elif stdout:
            sections.append(f"[stdout]\n{middle_out(stdout, budget)}")
        elif plain_text:
            sections.append(f"[results]\n{middle_out(plain_text, budget)}")
        rich = []
        if evidence.image_count:
            rich.append(f"{evidence.image_count} image(s)")
        if evidence.html_count:
            rich.append(f"{evidence.html_count} HTML output(s)")
        if rich:
            sections.append(f"[not shown: {', '.join(rich)}]")
        return "\n".join(sections) if sections else "(no text output)"

    def _facts(self, evidence: Evidence) -> str:
        return render_facts(evidence, self.max_output_chars)


# -- parsing --------------------------------------------------------------------------------


def parse_reply(response: Any, *, max_tokens: int | None = None) -> list[Any]:
    """The raw `findings` list of the reply's report_findings call, or ValueError (also for
    a reply cut off at max_tokens: its list may be missing findings)."""
    stop = _get(response, "stop_reason")
    if stop == "max_tokens":
        raise ValueError(f"Claude critic: the reply was cut off at max_tokens={max_tokens}; "
                         "its findings may be incomplete")
    content = _get(response, "content")
    blocks = content if isinstance(content, list) else []
    call = next((b for b in blocks
                 if _get(b, "type") == "tool_use" and _get(b, "name") == TOOL_NAME), None)
    if call is None:
        kinds = [str(_get(b, "type")) for b in blocks]
        raise ValueError(f"Claude critic: the reply has no {TOOL_NAME} tool call "
                         f"(stop_reason={stop!r}, content={kinds})")
    data = _get(call, "input")
    if isinstance(data, str):
        data = _loads(data)
    findings = _get(data, "findings") if isinstance(data, dict) else None
    if isinstance(findings, str):  # a model that JSON-encodes the nested array
        findings = _loads(findings)
    if not isinstance(findings, list):
        raise ValueError(f"Claude critic: {TOOL_NAME} input has no findings list "
                         f"(stop_reason={stop!r}, got {type(findings).__name__})")
    return findings


def _to_finding(item: Any, evidence: Evidence, checker: _QuoteChecker) -> Finding | None:
    """A checked Finding, or None when a required field is missing or invalid."""
    if not isinstance(item, dict):
        return None
    title = _text(item.get("title"), 200)
    explanation = _text(item.get("explanation"), 3000)
    severity = _severity(item.get("severity"))
    confidence = _number(item.get("confidence"))
    if not title or not explanation or severity is None or confidence is None:
        return None
    family = _family(item.get("family"))
    confidence = min(1.0, max(0.0, confidence))
    quotes = _quotes(item.get("quotes"))
    lines = _lines(item.get("lines"), len(evidence.lines))
    found = [q for q in quotes if checker.contains(q)]
    missing = [q for q in quotes if q not in found]
    if not lines:
        lines = checker.lines_of(found)
    ev: dict[str, Any] = {"lines": lines}
    if found:
        ev["quotes"] = found
        if missing:
            ev["unmatched_quotes"] = missing
        confidence = min(confidence, VERIFIED_CONFIDENCE_CAP)
    else:
        ev["quotes"] = quotes
        ev["unverified"] = True
        severity = severity.lowered(UNVERIFIED_SEVERITY_STEPS)
        confidence = confidence / 2
    return Finding(rule_id=f"claude.{family}", title=title, explanation=explanation,
                   severity=severity, confidence=confidence, evidence=ev,
                   suggestion=_text(item.get("suggestion"), 2000) or "", family=family,
                   source="claude")


class _QuoteChecker:
    """Is a quote (whitespace collapsed) whole evidence: a statement or a line of the cell
    code or the earlier code, or a line of the outputs, or every line of it one of those?"""

    def __init__(self, evidence: Evidence) -> None:
        self._units: set[str] = set()
        for source in (evidence.code, evidence.prior_code, evidence.text, evidence.stderr):
            self._units.update(_collapse(line) for line in source.splitlines())
        for source in (evidence.code, evidence.prior_code):
            self._units.update(_statements(source))
        for w in evidence.warnings:
            self._units.update({_collapse(w.message), _collapse(f"{w.category}: {w.message}")})
        self._units.discard("")
        self._code_lines = [_collapse(line) for line in evidence.lines]

    def contains(self, quote: str) -> bool:
        needle = _collapse(quote)
        if len(needle.replace(" ", "")) < MIN_QUOTE_CHARS:
            return False
        if needle in self._units:
            return True
        lines = [_collapse(q) for q in quote.splitlines() if q.strip()]
        return len(lines) > 1 and all(line in self._units for line in lines)

    def lines_of(self, quotes: list[str]) -> list[int]:
        """Cell lines a quote's first line sits on (when the model gave no usable lines)."""
        found: set[int] = set()
        for quote in quotes:
            first = next((_collapse(q) for q in quote.splitlines() if q.strip()), "")
            if len(first) < MIN_QUOTE_CHARS:
                continue
            found.update(i for i, line in enumerate(self._code_lines, 1) if first in line)
        return sorted(found)[:20]


# -- small helpers --------------------------------------------------------------------------

_LINE_PREFIX = re.compile(r"^\s*\d+\s*\|\s?", re.MULTILINE)


def _get(obj: Any, key: str) -> Any:
    if isinstance(obj, dict):
        return obj.get(key)
    return getattr(obj, key, None)


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _statements(source: str) -> set[str]:
    """Every statement of the source (a multi-line call is one), without comments."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and not isinstance(node, _COMPOUND):
            segment = ast.get_source_segment(source, node)
            if segment:
                found.update({_collapse(segment), _collapse(_without_comments(segment))})
    return found


def _without_comments(segment: str) -> str:
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(segment).readline))
    except (tokenize.TokenError, SyntaxError):
        return segment
    lines = segment.splitlines()
    for tok in reversed(tokens):
        if tok.type == tokenize.COMMENT:
            row, col = tok.start
            lines[row - 1] = lines[row - 1][:col]
    return "\n".join(lines)


_COMPOUND = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For,
             ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try)


def _text(value: Any, limit: int) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return None
    value = value.strip()
    return value if len(value) <= limit else value[: limit - 1] + "…"


def _severity(value: Any) -> Severity | None:
    if not isinstance(value, str):
        return None
    try:
        return Severity(value.strip().lower())
    except ValueError:
        return None


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            return None
    if not isinstance(value, int | float) or value != value:  # NaN
        return None
    return float(value)


def _family(value: Any) -> str:
    if not isinstance(value, str):
        return "other"
    name = value.strip().lower().replace("-", "_").replace(" ", "_")
    return name if name in FAMILIES else "other"


def _quotes(value: Any) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return []
    out: list[str] = []
    for q in value:
        if not isinstance(q, str):
            continue
        q = _LINE_PREFIX.sub("", q).strip().strip("`").strip()
        if q and q not in out:
            out.append(q[:500])
    return out[:10]


def _lines(value: Any, n_lines: int) -> list[int]:
    if isinstance(value, int | str):
        value = [value]
    if not isinstance(value, list):
        return []
    out: set[int] = set()
    for v in value:
        if isinstance(v, str) and v.strip().isdigit():
            v = int(v.strip())
        if isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= n_lines:
            out.add(v)
    return sorted(out)


def numbered_lines(code: str, budget: int) -> str:
    """`code` with `N | ` line numbers (the numbers findings and feedback cite), cut at a
    whole line within `budget` characters. Shared with the code generator's prompts."""
    lines = code.splitlines()
    width = len(str(len(lines)))
    out: list[str] = []
    used = 0
    for i, line in enumerate(lines, 1):
        row = f"{i:>{width}} | {line}"
        if used + len(row) > budget:
            out.append(f"… ({len(lines) - i + 1} more lines not shown)")
            break
        out.append(row)
        used += len(row) + 1
    return "\n".join(out)


def _tail(text: str, budget: int) -> str:
    if len(text) <= budget:
        return text
    cut = text[-budget:]
    cut = cut[cut.find("\n") + 1:] if "\n" in cut else cut  # start on a whole line
    return f"… (earlier code not shown)\n{cut}"


def _head(text: str, budget: int) -> str:
    return text if len(text) <= budget else text[:budget] + "…"


def middle_out(text: str, budget: int) -> str:
    """Head and tail of a long text (results and a traceback's exception sit at the end).
    Shared with the code generator's prompts."""
    if len(text) <= budget:
        return text
    head = budget // 3
    tail = budget - head
    return (f"{text[:head]}\n… ({len(text) - head - tail} characters not shown) …\n"
            f"{text[-tail:]}")
