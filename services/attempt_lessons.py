"""What one cell's attempts teach: lesson drafts from a fixed retry or an escalation, and
the query that finds the lessons relevant to a cell at hand.

Pure functions over the attempt records the service stores in
`cell.metadata["nbcritic"]["attempts"]`; the drafts are dicts in `Lesson.from_dict` shape.
"""

from __future__ import annotations

import ast
import difflib
import re
from typing import Any

MAX_DIFF_CHARS = 1500
MAX_TEXT_CHARS = 600
MAX_TITLE_CHARS = 200  # well under the store's limit (a finding title can quote code)
# import names that are not what a user calls the library
_ALIASES = {"sklearn": "sklearn", "scikit_learn": "sklearn", "bs4": "beautifulsoup4"}


def libraries_of(*sources: str) -> list[str]:
    """Top-level packages imported by the code (syntax errors: a regex fallback)."""
    found: set[str] = set()
    for source in sources:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            found.update(m.group(1) for m in re.finditer(
                r"^\s*(?:from|import)\s+([A-Za-z_]\w*)", source, re.M))
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.add(node.module.split(".")[0])
    return sorted(_ALIASES.get(name, name) for name in found)


def columns_in(text: str, namespace: dict[str, Any] | None) -> list[str]:
    """DataFrame columns known to the kernel that the text names as string literals (or,
    for prose such as a prompt, as whole words)."""
    known: set[str] = set()
    for facts in (namespace or {}).get("objects", {}).values():
        dtypes = facts.get("dtypes") if isinstance(facts, dict) else None
        if isinstance(dtypes, dict):
            known.update(str(c) for c in dtypes)
    return sorted(c for c in known if c and (
        f"'{c}'" in text or f'"{c}"' in text or re.search(rf"\b{re.escape(c)}\b", text)))


def _short(text: str, limit: int = MAX_TEXT_CHARS) -> str:
    text = " ".join(str(text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def code_diff(before: str, after: str) -> str:
    """A unified diff of the failing attempt against the fix, trimmed to a budget."""
    lines = list(difflib.unified_diff(before.splitlines(), after.splitlines(),
                                      "failing attempt", "fix", lineterm="", n=1))
    text = "\n".join(lines)
    if len(text) > MAX_DIFF_CHARS:
        text = text[: MAX_DIFF_CHARS - 20].rsplit("\n", 1)[0] + "\n… (diff trimmed)"
    return text


def _failure(record: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """(kind, details) of a failing attempt, None for one that succeeded."""
    findings = record.get("findings") or []
    if record.get("status") == "scientific_validity_error" and findings:
        return "critique", {"findings": findings}
    error = record.get("error")
    if record.get("status") != "ok" and error:
        return "error", {"error": error, "analysis": record.get("analysis") or {}}
    return None


def verified(record: dict[str, Any]) -> bool:
    """The attempt ended `ok` and passed the critic: no error, no block let through by an
    override. Only such an attempt makes the change before it a lesson."""
    return record.get("status") == "ok" and not record.get("override")


def _signature(record: dict[str, Any]) -> str:
    analysis = record.get("analysis") or {}
    if analysis.get("signature"):
        return str(analysis["signature"])
    failure = _failure(record)
    if failure and failure[0] == "critique":
        return "critique:" + ",".join(sorted(f.get("rule_id", "") for f in failure[1]["findings"]))
    return f"error:{(record.get('error') or {}).get('ename', '')}"


def _what_went_wrong(kind: str, details: dict[str, Any]) -> tuple[str, str, str, dict]:
    """(title, what went wrong, severity, scope fragment) of one failure."""
    if kind == "critique":
        findings = details["findings"]
        first = findings[0]
        title = _short(first.get("title") or first.get("rule_id") or "critical finding",
                       MAX_TITLE_CHARS)
        text = "; ".join(_short(f"{f.get('title', '')}: {f.get('explanation', '')}", 300)
                         for f in findings[:3])
        severity = "critical" if any(f.get("severity") == "critical" for f in findings) \
            else str(first.get("severity", "high"))
        return title, text, severity, {"rule_ids": sorted({str(f.get("rule_id", ""))
                                                          for f in findings} - {""})}
    error, analysis = details["error"], details["analysis"]
    ename = str(error.get("ename") or analysis.get("ename") or "Error")
    evalue = str(error.get("evalue") or analysis.get("evalue") or "")
    first_line = _short(evalue.strip().splitlines()[0] if evalue.strip() else "", 160)
    title = _short(f"{ename}: {first_line}" if first_line else ename, MAX_TITLE_CHARS)
    text = first_line or ename
    if analysis.get("line_text"):
        text += f" (at `{_short(analysis['line_text'], 160)}`)"
    if analysis.get("hint"):
        text += f". Hint: {_short(analysis['hint'], 300)}"
    severity = "medium" if ename not in ("CellTimeoutError", "DeadKernelError") else "high"
    return title, text, severity, {"error_types": [ename]}


def drafts_from_attempts(attempts: list[dict[str, Any]], *, escalation: dict[str, Any] | None,
                         notebook_id: str, cell_id: str, execution_id: str,
                         prior_code: str = "", namespace: dict[str, Any] | None = None
                         ) -> list[dict[str, Any]]:
    """A `fix` lesson for a failure whose rewrite was verified (the next attempt ended `ok`
    and passed the critic: failing merely differently fixes nothing), and a `mistake`
    lesson when the cell escalated."""
    source = {"notebook_id": notebook_id, "cell_id": cell_id, "execution_id": execution_id}
    drafts: list[dict[str, Any]] = []
    for index, record in enumerate(attempts):
        failure = _failure(record)
        if failure is None or index + 1 >= len(attempts) or not verified(attempts[index + 1]):
            continue
        after = attempts[index + 1]
        title, wrong, severity, scope = _what_went_wrong(*failure)
        code = record.get("code") or ""
        fixed = code_diff(code, after.get("code") or "")
        if after.get("explanation"):
            fixed = f"{_short(after['explanation'], 400)}\n{fixed}"
        drafts.append({
            "title": title, "category": "fix", "severity": severity,
            "what_went_wrong": wrong, "what_fixed_it": fixed,
            "scope": {**scope, "libraries": libraries_of(prior_code, code),
                      "columns": columns_in(code, namespace),
                      "tags": [record.get("cause") or failure[0]]},
            "source": {**source, "attempt": record.get("attempt"), "verified": True},
        })
    if escalation:
        last = attempts[-1] if attempts else {}
        failure = _failure(last)
        pattern = str(escalation.get("pattern", "escalated"))
        if failure is not None:
            title, wrong, _, scope = _what_went_wrong(*failure)
        else:
            title, wrong, scope = pattern.replace("_", " "), "", {}
        reason = _short(escalation.get("reason", ""), 300)
        code = last.get("code") or ""
        drafts.append({
            "title": title, "category": "mistake", "severity": "high",
            "what_went_wrong": f"{wrong} — the retry loop gave up ({pattern}: {reason})".strip(
                " —"),
            "what_fixed_it": "",
            "scope": {**scope, "libraries": libraries_of(prior_code, code),
                      "columns": columns_in(code, namespace), "tags": ["escalated", pattern]},
            "source": {**source, "escalated": True},
        })
    return drafts
