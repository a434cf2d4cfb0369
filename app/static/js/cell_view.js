// One cell: toolbar, editor (code) or rendered Markdown, status, outputs, critique, attempts.
// Edits are saved (PATCH) shortly after typing stops, and always before the cell runs.
import { api, enc } from './api.js';
import { h, fail, notice } from './dom.js';
import { createEditor } from './editor.js';
import { OutputArea, renderMarkdown } from './outputs.js';
import { critiquePanel } from './critique.js';
import { attemptsPanel, escalationPanel } from './attempts.js';

const SAVE_DELAY_MS = 600;

export class CellView {
  constructor(notebook, cell) {
    this.notebook = notebook; // the NotebookView: run(), move(), remove()
    this.cell = cell;
    this.saving = Promise.resolve();
    this.timer = 0;
    this.running = false;
    this.el = h('section', { class: `cell cell-${cell.cell_type}`, dataset: { cellId: cell.id } });
    this.build();
    this.update(cell);
  }

  get id() { return this.cell.id; }
  get meta() { return this.cell.metadata?.nbcritic ?? {}; }
  get label() { return `Cell ${this.notebook.indexOf(this) + 1} (${this.cell.cell_type})`; }

  build() {
    const button = (text, onclick, label) => h('button', { type: 'button', onclick, 'aria-label': label ? `${label}` : null }, text);
    this.heading = h('h2', { class: 'cell-title' });
    this.status = h('span', { class: 'status', role: 'status' });
    this.toolbar = h('div', { class: 'cell-toolbar', role: 'group' },
      this.heading, this.status,
      this.cell.cell_type === 'code' ? button('Run', () => this.notebook.runCell(this)) : null,
      this.cell.cell_type === 'markdown' ? button('Edit', () => this.editMarkdown()) : null,
      button('Move up', () => this.notebook.move(this, -1)),
      button('Move down', () => this.notebook.move(this, 1)),
      button('Add cell below', () => this.notebook.addCell('code', this)),
      button('Delete', () => this.notebook.remove(this)));
    this.promptEl = h('p', { class: 'prompt-text', hidden: true }); // what the generator was asked
    this.editorHost = h('div', { class: 'editor' });
    this.rendered = h('div', { class: 'rendered', hidden: true });
    this.rendered.addEventListener('dblclick', () => this.editMarkdown());
    this.outputsEl = h('div', { class: 'outputs', 'aria-live': 'polite', 'aria-label': 'Outputs' });
    this.outputs = new OutputArea(this.outputsEl);
    this.live = h('p', { class: 'live-log', hidden: true });
    this.extras = h('div', { class: 'cell-extras' });
    this.editor = createEditor({
      parent: this.editorHost, doc: this.cell.source ?? '',
      language: this.cell.cell_type === 'code' ? 'python' : 'text',
      label: 'code', onChange: () => this.scheduleSave(),
      onRun: () => (this.cell.cell_type === 'code' ? this.notebook.runCell(this) : this.renderMarkdown()),
    });
    this.el.append(this.toolbar, this.promptEl, this.editorHost, this.rendered, this.live, this.outputsEl, this.extras);
  }

  relabel() {
    this.heading.textContent = this.label;
    this.toolbar.setAttribute('aria-label', `${this.label} actions`);
    this.el.setAttribute('aria-label', this.label);
    this.editor.view.contentDOM.setAttribute('aria-label', `${this.label} source`);
    this.editor.view.requestMeasure(); // built detached: measure line heights in place
  }

  // A new state of the cell from the service (nbformat cell with metadata.nbcritic).
  update(cell) {
    this.cell = cell;
    this.editor.setValue(cell.source ?? '');
    this.promptEl.replaceChildren(h('strong', {}, 'Prompt: '), this.meta.prompt ?? '');
    this.promptEl.hidden = !this.meta.prompt;
    if (cell.cell_type === 'markdown') this.renderMarkdown(false);
    this.outputs.set(cell.outputs ?? []);
    this.setStatus(this.meta.status);
    this.live.hidden = true;
    this.showExtras();
  }

  setStatus(status, text) {
    this.status.textContent = text ?? status ?? '';
    this.status.className = `status${status ? ` status-${status}` : ''}`;
    this.el.dataset.status = status ?? '';
    if (this.meta.override && status === 'ok') this.status.textContent += ' (overridden)';
  }

  showExtras() {
    const meta = this.meta;
    const critique = critiquePanel(meta, {
      onShowLines: (lines) => { this.editor.highlight(lines); this.editor.goToLine(lines[0]); },
      onAccept: (body) => this.accept(body),
      onFix: this.notebook.critic?.generator ? () => this.notebook.runCell(this, { fix: true }) : null,
      minConfidence: this.notebook.critic?.min_confidence,
    });
    this.focusAccept = critique.focusAccept;
    const lines = (meta.critique?.findings ?? []).flatMap((f) => f.evidence?.lines ?? []);
    this.editor.highlight(lines);
    this.extras.replaceChildren(...[
      critique.el,
      escalationPanel(meta.status === 'scientific_validity_error' || meta.status === 'error' ? meta.escalation : null, {
        onAccept: () => this.focusAccept?.(), onEdit: () => this.editor.focus() }),
      attemptsPanel(meta.attempts),
    ].filter(Boolean));
  }

  renderMarkdown(save = true) {
    if (save) this.flush();
    this.rendered.replaceChildren(renderMarkdown(this.editor.value));
    this.rendered.hidden = false;
    this.editorHost.hidden = true;
  }

  editMarkdown() {
    this.rendered.hidden = true;
    this.editorHost.hidden = false;
    this.editor.focus();
  }

  scheduleSave() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), SAVE_DELAY_MS);
  }

  // Save the editor's text if it differs from the stored source; resolves when saved.
  flush() {
    clearTimeout(this.timer);
    const source = this.editor.value;
    if (source === this.cell.source) return this.saving;
    this.saving = this.saving.then(() => api(
      `/api/notebooks/${enc(this.notebook.id)}/cells/${enc(this.id)}`, { method: 'PATCH', body: { source } }))
      .then((cell) => { this.cell = { ...this.cell, source: cell.source, metadata: cell.metadata }; })
      .catch(fail);
    return this.saving;
  }

  // Did the person change the code since it was shown blocked?
  unchangedSinceBlocked() {
    return this.meta.status === 'scientific_validity_error' && this.editor.value === this.cell.source;
  }

  async accept({ reason, by }) {
    try {
      await api(`/api/notebooks/${enc(this.notebook.id)}/cells/${enc(this.id)}/critique/accept`,
        { method: 'POST', body: { reason, by } });
      notice('Finding accepted; running the cell again.');
      await this.notebook.runCell(this, { accepted: true });
    } catch (err) { fail(err); }
  }

  // -- live events of an execution ------------------------------------------------------
  started(attempt) {
    this.running = true;
    this.outputs.set([]);
    this.setStatus('running', attempt > 1 ? `running (attempt ${attempt})` : 'running');
  }

  event(type, data) {
    if (type === 'attempt_started') return this.started(data.attempt);
    if (['stream', 'display_data', 'execute_result', 'error', 'clear_output', 'update_display_data'].includes(type)) {
      return this.outputs.apply(type, data);
    }
    const log = {
      retry_scheduled: () => `Retrying: ${data.reason ?? data.cause ?? 'the code generator rewrites the cell'}`,
      escalated: () => `Escalated: ${data.question ?? data.reason ?? ''}`,
      override_applied: () => `Override applied (${data.how}) by ${data.by}`,
      critique: () => `Critic: ${(data.findings ?? []).length} finding(s)`,
      output_truncated: () => 'Output truncated (over the output budget)',
    }[type];
    if (log) {
      this.live.textContent = log();
      this.live.hidden = false;
    }
    return undefined;
  }

  async finished() {
    this.running = false;
    const cell = await api(`/api/notebooks/${enc(this.notebook.id)}/cells/${enc(this.id)}`);
    this.update(cell);
  }
}
