// The attempts of a cell's last run as a timeline: status, what went wrong, the feedback sent
// to the code generator, and the diff between one attempt's code and the next (jsdiff);
// then the escalation's question and its choices when the retry loop gave up.
import { diffLines } from 'diff/line';
import { h } from './dom.js';
import { findingsList } from './critique.js';

function codeDiff(before, after) {
  const pre = h('pre', { class: 'diff', 'aria-label': 'changes from the previous attempt' });
  for (const part of diffLines(before ?? '', after ?? '')) {
    const sign = part.added ? '+' : part.removed ? '-' : ' ';
    const cls = part.added ? 'diff-add' : part.removed ? 'diff-del' : 'diff-same';
    const text = part.value.replace(/\n$/, '').split('\n').map((line) => `${sign} ${line}`).join('\n');
    const tag = part.added ? 'ins' : part.removed ? 'del' : 'span';
    pre.append(h(tag, { class: cls }, `${text}\n`));
  }
  return pre;
}

// The attempt's code, numbered, its evidence lines marked (they are lines of this code).
function numberedCode(code, findings) {
  const marked = new Set((findings ?? []).flatMap((f) => f.evidence?.lines ?? []));
  return h('pre', { class: 'code numbered' }, (code ?? '').split('\n').map((line, i) => {
    const text = `${String(i + 1).padStart(3)}  ${line}\n`;
    return marked.has(i + 1) ? h('mark', { class: 'evidence', title: 'evidence of a finding' }, text) : text;
  }));
}

function problem(attempt) {
  if (attempt.findings?.length && attempt.status === 'scientific_validity_error') {
    return findingsList(attempt.findings, null);
  }
  if (attempt.error) return h('p', { class: 'error-text' }, `${attempt.error.ename}: ${String(attempt.error.evalue).split('\n')[0]}`);
  return null;
}

function attemptItem(attempt, previous) {
  const facts = [attempt.generated ? 'generated code' : 'the cell\'s code',
    attempt.cause ? `after ${attempt.cause}` : null,
    attempt.duration_ms != null ? `${Math.round(attempt.duration_ms)} ms` : null,
    attempt.tokens?.total ? `${attempt.tokens.total} tokens` : null].filter(Boolean).join(' · ');
  return h('li', { class: 'attempt', dataset: { attempt: attempt.attempt, status: attempt.status } },
    h('p', { class: 'attempt-head' }, h('strong', {}, `Attempt ${attempt.attempt}`), ' ',
      h('span', { class: `status status-${attempt.status}` }, attempt.status), ` ${facts}`),
    attempt.explanation ? h('p', {}, h('strong', {}, 'Generator: '), attempt.explanation) : null,
    previous ? codeDiff(previous.code, attempt.code)
      : h('details', {}, h('summary', {}, 'Code'), numberedCode(attempt.code, attempt.findings)),
    problem(attempt),
    attempt.feedback ? h('details', { class: 'feedback' }, h('summary', {}, 'Feedback sent to the code generator'),
      h('pre', {}, typeof attempt.feedback === 'string' ? attempt.feedback : JSON.stringify(attempt.feedback, null, 1))) : null);
}

export function escalationPanel(escalation, { onAccept, onEdit }) {
  if (!escalation) return null;
  return h('section', { class: 'escalation', 'aria-label': 'Escalation' },
    h('h3', {}, 'The retry loop asks you'),
    h('p', { class: 'question' }, escalation.question),
    h('p', { class: 'help' }, `${escalation.reason} (${escalation.pattern})`),
    h('div', { class: 'row' },
      h('button', { type: 'button', onclick: onEdit }, 'Restructure the code'),
      h('button', { type: 'button', onclick: onAccept }, 'The finding is wrong: accept it')));
}

export function attemptsPanel(attempts) {
  if (!attempts || attempts.length < 2) return null;
  return h('details', { class: 'attempts', open: true },
    h('summary', {}, `Attempts (${attempts.length})`),
    h('ol', { class: 'timeline' }, attempts.map((a, i) => attemptItem(a, attempts[i - 1]))));
}
