"""What the IPython magics show: findings, attempts with the diff of the code they changed,
escalations, settings and rules, as rich displays (`_repr_html_`) with a plain-text form
(`__repr__` / `_repr_pretty_`) for consoles, logs and tests.

Only presentation lives here: the panels are built from the plain dicts the engine already
produces (`Critique.to_dict()`, escalations, attempt records), local or from the REST API.
"""

from __future__ import annotations

import difflib
import html
from collections.abc import Iterable, Sequence
from typing import Any

MAX_CODE_LINES = 60
MAX_TEXT = 600

_TONES = {"ok": "#2e7d32", "warn": "#ef6c00", "error": "#c62828", "info": "#546e7a"}
_SEVERITY_COLOURS = {"critical": "#c62828", "high": "#ef6c00", "medium": "#f9a825",
                     "low": "#546e7a", "info": "#78909c"}


def _short(text: str, limit: int = MAX_TEXT) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


class Panel:
    """A titled block of paragraphs, findings, code, diffs and tables, rendered twice: HTML
    for notebooks, text for everything else. `kind` and `status` say what it is."""

    def __init__(self, title: str, *, tone: str = "info", kind: str = "report",
                 status: str | None = None) -> None:
        self.title = title
        self.tone = tone
        self.kind = kind
        self.status = status
        self._text: list[str] = []
        self._html: list[str] = []

    # -- building -------------------------------------------------------------------------

    def para(self, text: str, *, muted: bool = False, strong: bool = False) -> Panel:
        self._text.append(text)
        style = "color:#607d8b;" if muted else ""
        body = f"<b>{_esc(text)}</b>" if strong else _esc(text)
        self._html.append(f'<div style="margin:2px 0;{style}">{body}</div>')
        return self

    def finding(self, f: dict[str, Any], *, blocking: bool = False,
                overridden: bool = False) -> Panel:
        severity = str(f.get("severity", "?"))
        try:
            confidence = f"{float(f.get('confidence', 0.0)):.2f}"
        except (TypeError, ValueError):
            confidence = "?"
        rule_id = str(f.get("rule_id", ""))
        lines = _lines_of(f)
        where = f" (line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))})" \
            if lines else ""
        mark = " [overridden]" if overridden else (" [blocking]" if blocking else "")
        head = f"{severity.upper()} {confidence} {rule_id}{where}{mark}"
        text = [f"  {head}", f"    {_short(f.get('title') or rule_id)}"]
        if f.get("explanation"):
            text.append(f"    why: {_short(f['explanation'])}")
        values = (f.get("evidence") or {}).get("values") if isinstance(
            f.get("evidence"), dict) else None
        if values:
            shown = ", ".join(f"{k}={v!r}" for k, v in list(values.items())[:6])
            text.append(f"    measured: {_short(shown, 300)}")
        if f.get("suggestion"):
            text.append(f"    fix: {_short(f['suggestion'])}")
        self._text.append("\n".join(text))

        colour = _SEVERITY_COLOURS.get(severity, "#78909c")
        badge = (f'<span style="background:{colour};color:white;border-radius:3px;'
                 f'padding:0 5px;font-size:85%">{_esc(severity.upper())}</span>')
        tag = ""
        if overridden:
            tag = ' <span style="color:#607d8b">[overridden]</span>'
        elif blocking:
            tag = f' <span style="color:{_TONES["error"]};font-weight:bold">[blocking]</span>'
        parts = [f'<div style="margin:6px 0 6px 4px">{badge} <b>{_esc(f.get("title") or rule_id)}'
                 f'</b>{tag}<br><code>{_esc(rule_id)}</code> · confidence {confidence}'
                 f'{_esc(where)}']
        if f.get("explanation"):
            parts.append(f'<div style="margin-left:12px">{_esc(_short(f["explanation"]))}</div>')
        if values:
            shown = ", ".join(f"{k}={v!r}" for k, v in list(values.items())[:6])
            parts.append(f'<div style="margin-left:12px;color:#607d8b">measured: '
                         f'{_esc(_short(shown, 300))}</div>')
        if f.get("suggestion"):
            parts.append(f'<div style="margin-left:12px"><i>fix:</i> '
                         f'{_esc(_short(f["suggestion"]))}</div>')
        parts.append("</div>")
        self._html.append("".join(parts))
        return self

    def code(self, source: str, *, label: str | None = None) -> Panel:
        lines = source.rstrip("\n").splitlines()
        cut = len(lines) > MAX_CODE_LINES
        shown = "\n".join(lines[:MAX_CODE_LINES]) + ("\n# ..." if cut else "")
        if label:
            self.para(label, muted=True)
        self._text.append("\n".join("    " + line for line in shown.splitlines()))
        self._html.append(f'<pre style="margin:4px 0;padding:4px;background:#f5f5f5">'
                          f"{_esc(shown)}</pre>")
        return self

    def diff(self, before: str, after: str, *, label: str = "diff",
             names: tuple[str, str] = ("before", "after")) -> Panel:
        lines = code_diff(before, after, *names)
        if not lines:
            return self.para("(the code did not change)", muted=True)
        self.para(label, muted=True)
        self._text.append("\n".join("    " + line for line in lines))
        rendered = []
        for line in lines:
            colour = ""
            if line.startswith("+") and not line.startswith("+++"):
                colour = "background:#e8f5e9;color:#1b5e20"
            elif line.startswith("-") and not line.startswith("---"):
                colour = "background:#ffebee;color:#b71c1c"
            elif line.startswith("@@"):
                colour = "color:#6a1b9a"
            rendered.append(f'<span style="{colour}">{_esc(line)}</span>')
        self._html.append('<pre style="margin:4px 0;padding:4px;background:#fafafa">'
                          + "\n".join(rendered) + "</pre>")
        return self

    def table(self, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> Panel:
        rows = [[str(c) for c in row] for row in rows]
        widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]
        fmt = "  ".join(f"{{:<{w}}}" for w in widths)
        self._text.append("\n".join(["  " + fmt.format(*header).rstrip()]
                                    + ["  " + fmt.format(*r).rstrip() for r in rows]))
        head = "".join(f'<th style="text-align:left;padding:1px 8px">{_esc(h)}</th>'
                       for h in header)
        body = "".join("<tr>" + "".join(f'<td style="text-align:left;padding:1px 8px">'
                                        f"{_esc(c)}</td>" for c in r) + "</tr>" for r in rows)
        self._html.append(f'<table style="border-collapse:collapse;margin:4px 0">'
                          f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        return self

    # -- rendering ------------------------------------------------------------------------

    def text(self) -> str:
        return "\n".join([f"nbcritic: {self.title}", *self._text])

    def __repr__(self) -> str:
        return self.text()

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(self.text())

    def _repr_html_(self) -> str:
        colour = _TONES.get(self.tone, _TONES["info"])
        return (f'<div class="nbcritic nbcritic-{_esc(self.kind)}" '
                f'data-status="{_esc(self.status or "")}" '
                f'style="border-left:4px solid {colour};padding:4px 10px;margin:4px 0;'
                f'font-family:var(--jp-ui-font-family, sans-serif);font-size:90%">'
                f'<div style="color:{colour};font-weight:bold">nbcritic: {_esc(self.title)}'
                f'</div>{"".join(self._html)}</div>')


def _lines_of(f: dict[str, Any]) -> list[int]:
    evidence = f.get("evidence")
    lines = evidence.get("lines") if isinstance(evidence, dict) else None
    return [n for n in (lines or []) if isinstance(n, int) and not isinstance(n, bool)]


def code_diff(before: str, after: str, before_name: str = "before",
              after_name: str = "after") -> list[str]:
    """A unified diff of one cell's code between two attempts (difflib)."""
    return list(difflib.unified_diff(before.splitlines(), after.splitlines(),
                                     before_name, after_name, lineterm="", n=2))


# -- the panels -----------------------------------------------------------------------------


def critique_panel(critique: dict[str, Any] | None, *, status: str, blocking: Sequence[str],
                   min_confidence: float, attempt: int | None = None,
                   overridden: dict[str, Any] | None = None, note: str = "") -> Panel:
    """The findings of one attempt: blocking ones first, the rest after."""
    findings = list((critique or {}).get("findings") or [])
    blocking_set = set(blocking)
    where = f" (attempt {attempt})" if attempt and attempt > 1 else ""
    if critique is None or critique.get("skipped"):
        reason = (critique or {}).get("reason") or "the critic did not run"
        return Panel(f"not reviewed{where}: {reason}", tone="info", kind="critique",
                     status=status)
    if overridden is not None:
        how = overridden.get("how", "override")
        title = (f"{len(overridden.get('findings') or [])} blocking finding(s) overridden "
                 f"({how}){where}")
        tone = "warn"
    elif blocking_set:
        n = len([f for f in findings if f.get("rule_id") in blocking_set])
        title = f"{status}: {n} blocking finding{'s' if n != 1 else ''}{where}"
        tone = "error"
    elif findings:
        title = (f"no blocking finding{where}; {len(findings)} "
                 f"finding{'s' if len(findings) != 1 else ''} below the bar")
        tone = "ok"
    else:
        title = f"no findings{where} ({critique.get('rules_run', 0)} rules)"
        tone = "ok"
    panel = Panel(title, tone=tone, kind="critique", status=status)
    overridden_ids = set(overridden.get("findings") or []) if overridden else set()
    for f in sorted(findings, key=lambda f: f.get("rule_id") not in
                    (blocking_set | overridden_ids)):
        rule_id = f.get("rule_id")
        panel.finding(f, blocking=rule_id in blocking_set,
                      overridden=rule_id in overridden_ids)
    if findings and not blocking_set and overridden is None:
        panel.para(f"a critical finding blocks at confidence >= {min_confidence:g}",
                   muted=True)
    for error in (critique.get("errors") or [])[:3]:
        panel.para(f"critic error in {error.get('rule_id')}: {_short(error.get('error', ''))}",
                   muted=True)
    if note:
        panel.para(note, muted=True)
    return panel


def attempt_panel(number: int, code: str, previous: str | None, *, cause: str | None,
                  generator: str = "", explanation: str = "", note: str = "") -> Panel:
    """A generated attempt: why, and what it changed (a diff against the previous attempt)."""
    why = {"error": "after an error", "critique": "after the critic's findings"}.get(
        cause or "", "from the prompt")
    by = f" by {generator}" if generator else ""
    title = f"attempt {number}: code written{by} {why}" + (f" ({note})" if note else "")
    panel = Panel(title, tone="info", kind="attempt", status="running")
    if explanation and explanation != "scripted":
        panel.para(_short(explanation), muted=True)
    if previous is None or not previous.strip():
        panel.code(code, label="generated code")
    else:
        panel.diff(previous, code, label=f"what attempt {number} changed",
                   names=(f"attempt {number - 1}", f"attempt {number}"))
    return panel


def escalation_panel(escalation: dict[str, Any]) -> Panel:
    panel = Panel(f"escalated ({escalation.get('pattern', '?')})", tone="error",
                  kind="escalation", status="escalated")
    if escalation.get("reason"):
        panel.para(str(escalation["reason"]))
    if escalation.get("question"):
        panel.para(f"question: {escalation['question']}", strong=True)
    attempts = escalation.get("attempts") or []
    if attempts:
        panel.table(["attempt", "status", "summary"],
                    [[a.get("attempt"), a.get("status"), _short(a.get("summary", ""), 140)]
                     for a in attempts])
    return panel


def summary_panel(status: str, attempts: int, *, next_input: bool, fixed: bool,
                  overridden: bool = False) -> Panel:
    tone = "ok" if status == "ok" else "error"
    if status == "ok" and fixed:
        title = f"ok after {attempts} attempts"
    elif status == "ok":
        title = "ok" + (" (critic overridden)" if overridden else "")
    else:
        title = f"{status} after {attempts} attempt{'s' if attempts != 1 else ''}"
    panel = Panel(title, tone=tone, kind="summary", status=status)
    if next_input:
        panel.para("the accepted code is in the next cell input (your cell is unchanged)")
    return panel


def message_panel(title: str, *lines: str, tone: str = "info", kind: str = "message") -> Panel:
    panel = Panel(title, tone=tone, kind=kind)
    for line in lines:
        panel.para(line)
    return panel
