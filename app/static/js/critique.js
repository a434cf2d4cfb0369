// A cell's critique: each finding (severity, rule, explanation, evidence lines and values,
// suggested fix); for a blocked cell, why, and the form to accept the findings with a reason.
import { h, uid } from './dom.js';

const SEVERITY_ORDER = ['critical', 'high', 'medium', 'low', 'info'];

function values(evidence) {
  const entries = Object.entries(evidence?.values ?? {});
  if (!entries.length) return null;
  return h('dl', { class: 'values' }, entries.map(([key, value]) => [
    h('dt', {}, key), h('dd', {}, typeof value === 'object' ? JSON.stringify(value) : String(value))]));
}

const lineText = (lines) => `line${lines.length > 1 ? 's' : ''} ${lines.join(', ')}`;

// `onShowLines` (optional) highlights the lines in the editor.
function finding(item, onShowLines, minConfidence) {
  const belowBar = item.severity === 'critical' && minConfidence != null && item.confidence < minConfidence;
  const lines = item.evidence?.lines ?? [];
  return h('li', { class: `finding finding-${item.severity}`, dataset: { rule: item.rule_id } },
    h('p', { class: 'finding-head' },
      h('span', { class: `severity severity-${item.severity}` }, item.severity),
      ' ', h('strong', {}, item.title), ' ',
      h('code', { class: 'rule-id' }, item.rule_id),
      h('span', { class: 'confidence' }, ` confidence ${Number(item.confidence ?? 0).toFixed(2)}`,
        belowBar ? `, below the blocking bar (${minConfidence})` : '')),
    h('p', {}, item.explanation),
    lines.length ? h('p', { class: 'evidence-lines' }, 'Evidence: ', onShowLines
      ? h('button', { type: 'button', class: 'link', onclick: () => onShowLines(lines) }, lineText(lines))
      : lineText(lines)) : null,
    values(item.evidence),
    item.suggestion ? h('p', { class: 'suggestion' }, h('strong', {}, 'Suggested fix: '), item.suggestion) : null);
}

export function findingsList(findings, onShowLines, minConfidence) {
  const sorted = [...findings].sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity));
  return h('ul', { class: 'findings' }, sorted.map((item) => finding(item, onShowLines, minConfidence)));
}

function acceptForm(onAccept) {
  const reasonId = uid('reason');
  const byId = uid('by');
  const reason = h('textarea', { id: reasonId, required: true, rows: 2,
    placeholder: 'Why the finding does not apply to this data' });
  const by = h('input', { id: byId, autocomplete: 'name', placeholder: 'your name' });
  const form = h('form', { class: 'accept-form' },
    h('label', { for: reasonId }, 'Reason for accepting'), reason,
    h('label', { for: byId }, 'Accepted by'), by,
    h('button', { type: 'submit' }, 'Accept finding and run again'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    onAccept({ reason: reason.value.trim(), by: by.value.trim() || 'web page user' });
  });
  return { form, reason };
}

// The panel under a cell's outputs. `meta` is the cell's metadata.nbcritic; `onFix` (only
// when the service has a code generator) asks it to rewrite the blocked code.
export function critiquePanel(meta, { onShowLines, onAccept, onFix, minConfidence }) {
  const findings = meta?.critique?.findings ?? [];
  const blocked = meta?.status === 'scientific_validity_error';
  const override = meta?.override;
  if (!findings.length && !blocked && !override) return { el: null };
  const parts = [h('h3', {}, blocked ? 'Blocked by the critic' : 'Critique')];
  if (blocked) {
    parts.push(h('p', { class: 'blocked-why' }, 'The cell ran, but a critical finding makes its result '
      + 'untrustworthy. Fix the code, or accept the finding if it is wrong for this data: running the '
      + 'same code again is an override, so the page asks for a reason first.'));
  }
  if (override) {
    parts.push(h('p', { class: 'override-note', dataset: { how: override.how ?? 'accepted' } },
      h('span', { class: 'badge overridden' }, 'overridden'),
      ` by ${override.by ?? 'someone'} (${override.how ?? 'accepted'})`,
      override.reason ? `: ${override.reason}` : ''));
  }
  if (findings.length) parts.push(findingsList(findings, onShowLines, minConfidence));
  let accept = null;
  if (blocked) {
    if (onFix) {
      parts.push(h('p', {}, h('button', { type: 'button', onclick: onFix }, 'Let the code generator fix it'),
        h('span', { class: 'help' }, ' it rewrites the cell from the findings, within the retry budgets')));
    }
    accept = acceptForm(onAccept);
    parts.push(accept.form);
  }
  const el = h('section', { class: `critique${blocked ? ' blocked' : ''}`, 'aria-label': 'Critique' }, parts);
  return { el, focusAccept: () => accept?.reason.focus() };
}
